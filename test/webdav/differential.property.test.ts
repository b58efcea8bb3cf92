import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { runsOn } from '../support/property-runs.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { agree, treeOf, viaDav, viaRest, type Outcome } from './differential-doors.js';
import { buildSite, siteArb, SOURCES, stepArb, type Step } from './differential-sites.js';

/**
 * WebDAV and REST are two front doors to the same file services and the same authorization core:
 * on random sites (users of a Custom Workspace, groups, grants to users, groups and ALL-of sets of
 * groups at random levels, recursive or not, sometimes a Workspace Administrator, and a Partner
 * user framed at its Partner's root with random Partner grants) the same random
 * operations, performed as the same user through each door on two identical copies of the site,
 * are allowed or refused alike (404 where REST says 404, 403 where it says 403), list and read the
 * same, and leave the two copies with the same tree.
 */
const operations = stepArb({ copies: true, deletes: SOURCES });

describe.each(testDatabaseTargets())('WebDAV and REST agree on random sites and operations [$name]', (target) => {
  const RUNS = runsOn(target, 'WEBDAV_DIFFERENTIAL_RUNS', 15);
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  /**
   * Whether a user sees a folder. REST's move and copy create a missing destination folder, WebDAV's
   * answer 409 (RFC 4918 9.8.5, 9.9.4), and a folder the user may not see is missing as far as it can
   * tell: such moves and copies differ by design and are not compared.
   */
  async function folderVisible(key: string, path: string): Promise<boolean> {
    const response = await t.api.get(`/file_actions/metadata/${path.split('/').map(encodeURIComponent).join('/')}`, { key });
    return response.status === 200 && response.body.type === 'directory';
  }

  it('allows and refuses alike, sees the same, and leaves the same tree', async () => {
    await fc.assert(fc.asyncProperty(siteArb, fc.array(operations, { minLength: 1, maxLength: 8 }), async (site, steps) => {
      const rest = await buildSite(t, site);
      const dav = await buildSite(t, site);
      expect(await treeOf(t, dav.ws)).toEqual(await treeOf(t, rest.ws));
      const log: { step: Step; rest: Outcome; dav: Outcome }[] = [];
      for (const step of steps) {
        if (step.kind === 'move' || step.kind === 'copy') {
          const parent = step.to.includes('/') ? step.to.slice(0, step.to.lastIndexOf('/')) : '';
          if (!(await folderVisible(rest.keys[step.user] as string, parent))) continue;
        }
        const byRest = await viaRest(t, rest.keys[step.user] as string, step);
        const byDav = await viaDav(t, dav.keys[step.user] as string, step);
        log.push({ step, rest: byRest, dav: byDav });
        expect(agree(byRest, byDav, step), JSON.stringify(log, null, 1)).toBe(true);
      }
      expect(await treeOf(t, dav.ws), JSON.stringify(log, null, 1)).toEqual(await treeOf(t, rest.ws));
    }), { numRuns: RUNS });
  }, 240_000);
});
