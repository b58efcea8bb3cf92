import { expect } from 'vitest';
import { createApiKey, unique } from '../support/factories.js';
import type { SiteFixture } from '../support/site-fixture.js';
import type { TestApp } from '../support/test-app.js';

/** The password the Partner users of these tests sign in with at WebDAV and SFTP. */
export const PARTNER_PASSWORD = 'a partner passphrase that is long enough';

export interface PartnerRootSite {
  partnerId: number;
  userId: number;
  username: string;
  /** The Partner user's own API key. */
  key: string;
  /** The Partner's root folder as its Workspace names it (`Partners/<name>`). */
  root: string;
  name: string;
  /** The root folder's site path (`_/Workspaces/<ws1>/Partners/<name>`). */
  site: string;
}

/**
 * A Partner of Workspace 1 rooted at `Partners/<name>` with `hello.txt` and `docs/a.txt` in it, a
 * sibling folder `Partners/<name>-other` with a secret, one Partner user (with a password and an
 * API key of its own), and, unless `grant` is null, a Partner grant of `grant` on the root,
 * all made through the REST API by the Workspace's administrator.
 */
export async function buildPartnerRoot(t: TestApp, s: SiteFixture, grant: string | null = 'full'): Promise<PartnerRootSite> {
  const as = { key: s.admin1.key };
  const put = (path: string, text: string) =>
    t.api.call('PUT', `/files/${path}?mkdir_parents=true`, { ...as, rawBody: text, headers: { 'content-type': 'application/octet-stream' } });
  const name = unique('Acme');
  const root = `Partners/${name}`;
  const partner = await t.api.post('/partners', { name, root_folder: root }, as);
  expect(partner.status).toBe(201);
  const username = unique('pu');
  const user = await t.api.post('/users', { username, partner_id: partner.body.id, password: PARTNER_PASSWORD }, as);
  expect(user.status, JSON.stringify(user.body)).toBe(201);
  const key = await createApiKey(t.database.db, { userId: user.body.id, workspaceId: s.ws1 });
  expect((await put(`${root}/hello.txt`, 'hello')).status).toBe(201);
  expect((await put(`${root}/docs/a.txt`, 'a')).status).toBe(201);
  expect((await put(`${root}-other/secret.txt`, 's')).status).toBe(201);
  if (grant !== null) {
    const granted = await t.api.post('/permissions', { partner_id: partner.body.id, path: root, permission: grant }, as);
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
  }
  return { partnerId: partner.body.id as number, userId: user.body.id as number, username, key, root, name, site: `_/Workspaces/${s.ws1}/${root}` };
}
