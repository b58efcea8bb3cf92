import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { runsOn } from '../support/property-runs.js';
import { BOOTSTRAP_KEY } from '../support/test-app.js';
import { treeOf, viaRest, type Operation, type Outcome } from '../webdav/differential-doors.js';
import { buildSite, FILEISH, siteArb, stepArb, workspacePathOf, type Step } from '../webdav/differential-sites.js';
import { agreeSftp, viaSftp } from './differential-sftp.js';
import { startSftpTestApp, type SftpConnection, type SftpTestApp } from './sftp-fixture.js';

/**
 * SFTP and REST are two front doors to the same file services and the same authorization core
 * (the WebDAV differential test's sites and operations, test/webdav/): on random sites (users of a
 * Custom Workspace, groups, grants to users, groups and ALL-of sets of groups at random levels,
 * recursive or not, sometimes a Workspace Administrator, and a Partner user framed at its Partner's
 * root with random Partner grants) the same random operations, performed as
 * the same user through each door on two identical copies of the site, are allowed or refused
 * alike (NO_SUCH_FILE where REST says 404, PERMISSION_DENIED where it says 403), list and read the
 * same, and leave the two copies with the same tree. SFTP has no copy, and removes only empty
 * folders (RMDIR), so copies and deletions of folders are not compared.
 */
const operations = stepArb({ copies: false, deletes: FILEISH });

describe.each(testDatabaseTargets())('SFTP and REST agree on random sites and operations [$name]', (target) => {
  const RUNS = runsOn(target, 'SFTP_DIFFERENTIAL_RUNS', 12);
  let t: SftpTestApp;
  beforeAll(async () => { t = await startSftpTestApp(target, { limits: { perAddress: 50 } }); });
  afterAll(() => t.close());

  /** Whether the path is a folder in the REST copy (deleting a folder is not compared: SFTP's RMDIR is not recursive). */
  async function isFolder(path: string, ws: number): Promise<boolean> {
    const response = await t.api.get(`/file_actions/metadata/_/Workspaces/${ws}/${path.split('/').map(encodeURIComponent).join('/')}`, { key: BOOTSTRAP_KEY });
    return response.status === 200 && response.body.type === 'directory';
  }

  it('allows and refuses alike, sees the same, and leaves the same tree', async () => {
    await fc.assert(fc.asyncProperty(siteArb, fc.array(operations, { minLength: 1, maxLength: 8 }), async (site, steps) => {
      const rest = await buildSite(t, site);
      const sftp = await buildSite(t, site);
      expect(await treeOf(t, sftp.ws)).toEqual(await treeOf(t, rest.ws));
      // Each user signs in to SFTP with its own API key as its password, and lands in the Workspace's
      // root (the Partner user in its Partner's root).
      const connections: SftpConnection[] = [];
      try {
        for (let u = 0; u < sftp.keys.length; u += 1) connections.push(await t.connect({ username: sftp.usernames[u] as string, password: sftp.keys[u] as string }));
        const log: { step: Step; rest: Outcome; sftp: Outcome }[] = [];
        for (const step of steps) {
          if (step.kind === 'delete' && (await isFolder(workspacePathOf(step.user, step.path), rest.ws))) continue;
          const byRest = await viaRest(t, rest.keys[step.user] as string, step as Operation);
          const bySftp = await viaSftp((connections[step.user] as SftpConnection).sftp, step as Operation);
          log.push({ step, rest: byRest, sftp: bySftp });
          expect(agreeSftp(byRest, bySftp, step as Operation), JSON.stringify(log, null, 1)).toBe(true);
        }
        expect(await treeOf(t, sftp.ws), JSON.stringify(log, null, 1)).toEqual(await treeOf(t, rest.ws));
      } finally {
        for (const connection of connections) connection.close();
      }
    }), { numRuns: RUNS });
  }, 300_000);
});
