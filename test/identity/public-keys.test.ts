import { execFileSync } from 'node:child_process';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicKeyMatches, publicKeyOfUserMatching, touchPublicKeyLogin } from '../../src/identity/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';

const PASSWORD = 'a perfectly good passphrase';
const REAUTH = 'X-Service-Reauthentication';
const KEY_FIELDS = ['created_at', 'fingerprint', 'fingerprint_sha256', 'id', 'last_login_at', 'public_key', 'title', 'user_id', 'username'];

/** A fresh OpenSSH public key line of the given type, made by ssh2 as `ssh-keygen` would. */
function sshKey(type: 'ed25519' | 'ecdsa' | 'rsa', bits?: number, comment = 'me@laptop'): string {
  return generateOpenSshKeyPairSync(type, { ...(bits === undefined ? {} : { bits }), comment }).public.trim();
}

/** A DSA key made once by ssh-keygen (recent OpenSSH and ssh2 no longer make them). */
const DSA_KEY = [
  'ssh-dss AAAAB3NzaC1kc3MAAACBAKN1sHgaSAdiA90tWmyaGh9AfoPdzwbHSnbl3Z4gATLe6RGHggvuxZAaa3jABqRxio2oB5Yv',
  'CMZAB7D1h2dXBYXDO9x3BlHtU3sHQlh5wLUR+7806jQW0X3bIHT2Zs5AtVoaoRbZ4/DIzfnfMJv95CJNHQz9F/I7+48MoQXsCR7x',
  'AAAAFQD11e04sswFx5VXkutMQzQ2T+zVtwAAAIBxxl0kHmOh9SJeR+vx/oaKsMVPcJxvT11EY0u0n6HoMtVhbPj/fGJ8Y/tOuASE',
  'PmZzfBThsuNbICqSmYLc60D/4HQoUf8tMsPRqLIht7Q1lLsNjPU58RSkCw7zvKGp70unjKqnTzm764FVUg+IdmSvy6Rzvw7yEI8f',
  'Vuvd/D/NqwAAAIAuZx19L2DV6hz+zeY7n00gmidLQDSocfsWdmiDduBERQvQlGnc+kGIIm0JbhGv81yeBCSjbj+vHa0QyFbFUzAR',
  'FeFplvVu8gV23lADhEwFEXDR9cuHUOT7hkkZhFm7uMXPy8E51Tq+1M1YM73w6lUpSg5ZSoiPqH8HQOKXiITOLQ==',
].join('');

/** ssh-keygen's own fingerprints of a key line, when ssh-keygen is installed. */
function sshKeygenFingerprints(line: string): { md5: string; sha256: string } | undefined {
  try {
    const read = (hash: string) => execFileSync('ssh-keygen', ['-l', '-E', hash, '-f', '-'], { input: line }).toString().split(' ')[1] as string;
    return { md5: read('md5').replace(/^MD5:/, ''), sha256: read('sha256').replace(/^SHA256:/, '') };
  } catch {
    return undefined;
  }
}

describe.each(testDatabaseTargets())('public keys [$name]', (target) => {
  let t: TestApp;
  let ws1: number;
  let ws2: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws1 = await createWorkspace(t.database.db);
    ws2 = await createWorkspace(t.database.db);
  });
  afterAll(() => t.close());

  const keyOf = async (fields: Parameters<typeof createUser>[1] = {}) => {
    const user = await createUser(t.database.db, fields);
    return { user, key: await createApiKey(t.database.db, { userId: user.id, workspaceId: fields.workspaceId ?? 0 }) };
  };
  const add = (key: string, body: Record<string, unknown>, workspace?: number) =>
    t.api.post('/public_keys', body, { key, ...(workspace === undefined ? {} : { workspace }) });
  const latest = async (action: string) =>
    (await t.database.db.selectFrom('history').selectAll().where('action', '=', action).orderBy('id', 'desc').limit(1).execute())[0];

  it('adds a pasted key for the caller: 201, fingerprints as ssh-keygen prints them, and lists, shows, renames and deletes it', async () => {
    const { user, key } = await keyOf();
    const line = sshKey('ed25519');
    const created = await add(key, { title: 'laptop', public_key: `  ${line}\n` });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(KEY_FIELDS);
    expect(created.body).toMatchObject({ title: 'laptop', user_id: user.id, username: user.username, last_login_at: null, public_key: line, created_at: '2026-01-01T00:00:00Z' });
    expect(created.body.fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    expect(created.body.fingerprint_sha256).toMatch(/^[A-Za-z0-9+/]{43}$/);
    const expected = sshKeygenFingerprints(line);
    if (expected !== undefined) expect({ md5: created.body.fingerprint, sha256: created.body.fingerprint_sha256 }).toEqual(expected);

    const id = created.body.id as number;
    const listed = await t.api.get('/public_keys', { key });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([created.body]);
    expect((await t.api.get('/public_keys?user_id=0', { key })).body).toEqual([created.body]);
    expect((await t.api.get(`/public_keys?user_id=${user.id}`, { key })).body).toEqual([created.body]);
    expect((await t.api.get(`/public_keys/${id}`, { key })).body).toEqual(created.body);

    const renamed = await t.api.patch(`/public_keys/${id}`, { title: 'old laptop', public_key: sshKey('ed25519') }, { key });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created.body, title: 'old laptop' });
    expect((await t.api.put(`/public_keys/${id}`, {}, { key })).body).toEqual(renamed.body);

    const deleted = await t.api.delete(`/public_keys/${id}`, { key });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const gone = await t.api.get(`/public_keys/${id}`, { key });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ type: 'not-found', error: 'Public key not found.' });
  });

  it('accepts Ed25519, ECDSA P-256/384/521, RSA 2048 and more, and the RFC 4716 form (as PuTTYgen exports it)', async () => {
    const { key } = await keyOf();
    const lines = [sshKey('ed25519'), sshKey('ecdsa', 256), sshKey('ecdsa', 384), sshKey('ecdsa', 521), sshKey('rsa', 2048), sshKey('rsa', 3072)];
    for (const line of lines) {
      const response = await add(key, { title: line.split(' ')[0], public_key: line });
      expect(response.status, line).toBe(201);
      expect(response.body.public_key).toBe(line);
    }
    const blob = (ssh2.utils.parseKey(sshKey('ecdsa', 256)) as ssh2.ParsedKey).getPublicSSH().toString('base64');
    const rfc4716 = `---- BEGIN SSH2 PUBLIC KEY ----\nComment: "from puttygen"\n${blob.replace(/.{70}/g, '$&\n')}\n---- END SSH2 PUBLIC KEY ----\n`;
    const putty = await add(key, { title: 'rfc4716', public_key: rfc4716 });
    expect(putty.status).toBe(201);
    expect(putty.body.public_key).toBe(`ecdsa-sha2-nistp256 ${blob} from puttygen`);
  });

  it('refuses weak keys, private keys, several keys, garbage and duplicates with a sentence naming the field', async () => {
    const { key } = await keyOf();
    const ed = generateOpenSshKeyPairSync('ed25519', { comment: 'x' });
    const rsa1024 = sshKey('rsa', 1024);
    const cases: [string, string, RegExp][] = [
      ['RSA 1024', rsa1024, /RSA key of 1024 bits; at least 2048/],
      ['DSA', DSA_KEY, /DSA key/],
      ['private key', ed.private, /private key/],
      ['encrypted private key', generateOpenSshKeyPairSync('ed25519', { passphrase: 'secret words', cipher: 'aes256-ctr', rounds: 16 }).private, /private key/],
      ['two keys', `${sshKey('ed25519')}\n${sshKey('ed25519')}`, /more than one line/],
      ['garbage', 'ssh-ed25519 not-base64 at all', /not a valid SSH public key/],
      ['truncated', sshKey('ed25519').slice(0, 40), /not a valid SSH public key/],
      ['words', 'hello world', /not a valid SSH public key/],
      ['blank', '   ', /is empty/],
      ['huge', `ssh-rsa ${'A'.repeat(20_000)}`, /too long/],
    ];
    for (const [name, publicKey, problem] of cases) {
      const response = await add(key, { title: name, public_key: publicKey });
      expect({ name, status: response.status, type: response.body.type }).toEqual({ name, status: 422, type: 'processing-failure/model-save-error' });
      expect(response.body.error, name).toMatch(/^The change cannot be saved: public_key /);
      expect(response.body.error, name).toMatch(problem);
      expect(response.body.model_errors?.public_key?.[0] ?? response.body.error, name).toMatch(problem);
    }
    const line = sshKey('ed25519');
    expect((await add(key, { title: 'first', public_key: line })).status).toBe(201);
    const again = await add(key, { title: 'again', public_key: line.replace(/ me@laptop$/, ' other comment') });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatch(/public_key is already registered for this user/);
    // Another user may register the same key: sign-in names the user first.
    expect((await add((await keyOf()).key, { title: 'shared', public_key: line })).status).toBe(201);
  });

  it('validates the body: title required, public_key or generate_keypair (not both), generation parameters', async () => {
    const { key } = await keyOf();
    const noTitle = await add(key, { public_key: sshKey('ed25519') });
    expect([noTitle.status, noTitle.body.type]).toEqual([400, 'bad-request/request-params-required']);
    const neither = await add(key, { title: 'k' });
    expect([neither.status, neither.body.type]).toEqual([400, 'bad-request/request-params-required']);
    expect(neither.body.error).toMatch(/public_key is required unless generate_keypair is true/);
    const both = await add(key, { title: 'k', public_key: sshKey('ed25519'), generate_keypair: true });
    expect([both.status, both.body.type]).toEqual([400, 'bad-request/request-params-invalid']);
    for (const [body, field] of [
      [{ generate_algorithm: 'dsa' }, 'generate_algorithm'],
      [{ generate_algorithm: 'rsa', generate_length: 1024 }, 'generate_length'],
      [{ generate_algorithm: 'rsa', generate_length: 16384 }, 'generate_length'],
      [{ generate_algorithm: 'ecdsa', generate_length: 512 }, 'generate_length'],
      [{ generate_algorithm: 'x25519' }, 'generate_algorithm'],
      [{ generate_algorithm: 'ed25519', generate_private_key_password: 'abc' }, 'generate_private_key_password'],
    ] as const) {
      const response = await add(key, { title: 'k', generate_keypair: true, ...body });
      expect({ body, status: response.status, type: response.body.type }).toEqual({ body, status: 400, type: 'bad-request/request-params-invalid' });
      expect(response.body.error).toContain(field);
    }
  });

  it('generates a pair: the private key once, in OpenSSH format, signing what the stored public key verifies', async () => {
    const { user, key } = await keyOf();
    for (const [body, type] of [
      [{ generate_algorithm: 'ed25519' }, 'ssh-ed25519'],
      [{ generate_algorithm: 'ecdsa', generate_length: 384 }, 'ecdsa-sha2-nistp384'],
      [{ generate_algorithm: 'rsa', generate_length: 2048 }, 'ssh-rsa'],
      [{}, 'ssh-rsa'],
    ] as const) {
      const response = await add(key, { title: `generated ${type}`, generate_keypair: true, generate_keypair_ignored: 1, ...body });
      expect(response.status, JSON.stringify(body)).toBe(201);
      expect(response.body).toMatchObject({ status: 'complete', user_id: user.id, title: `generated ${type}` });
      const privateKey = response.body.generated_private_key as string;
      expect(privateKey).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----\n/);
      expect(response.body.generated_public_key).toBe(response.body.public_key);
      expect((response.body.public_key as string).split(' ')[0]).toBe(type);
      const signer = ssh2.utils.parseKey(privateKey) as ssh2.ParsedKey;
      const verifier = ssh2.utils.parseKey(response.body.public_key) as ssh2.ParsedKey;
      const data = Buffer.from('sign me');
      expect(verifier.verify(data, signer.sign(data))).toBe(true);
      if (Object.keys(body).length === 0) {
        const bits = (await import('node:crypto')).createPublicKey(verifier.getPublicPEM()).asymmetricKeyDetails?.modulusLength;
        expect(bits).toBe(4096);
      }
      const shown = await t.api.get(`/public_keys/${response.body.id}`, { key });
      expect(Object.keys(shown.body).sort()).toEqual(KEY_FIELDS);
      const stored = JSON.stringify(await t.database.db.selectFrom('public_keys').selectAll().execute());
      expect(stored).not.toContain(privateKey.split('\n')[2]);
    }
  });

  it('encrypts a generated private key with generate_private_key_password', async () => {
    const { key } = await keyOf();
    const password = 'correct horse';
    const response = await add(key, { title: 'locked', generate_keypair: true, generate_algorithm: 'ed25519', generate_private_key_password: password });
    expect(response.status).toBe(201);
    const privateKey = response.body.generated_private_key as string;
    expect(ssh2.utils.parseKey(privateKey)).toBeInstanceOf(Error);
    const signer = ssh2.utils.parseKey(privateKey, password) as ssh2.ParsedKey;
    const data = Buffer.from('locked data');
    expect((ssh2.utils.parseKey(response.body.public_key) as ssh2.ParsedKey).verify(data, signer.sign(data))).toBe(true);
    expect(JSON.stringify(await t.database.db.selectFrom('history').selectAll().execute())).not.toContain(password);
  });

  it('lets administrators manage the keys of the users they administer, and no one else (as API keys)', async () => {
    const { user: member, key: memberKey } = await keyOf({ workspaceId: ws1 });
    const { key: wsAdminKey } = await keyOf({ workspaceId: ws1, workspaceAdmin: true });
    const { key: otherAdminKey } = await keyOf({ workspaceId: ws2, workspaceAdmin: true });
    const { key: peerKey } = await keyOf({ workspaceId: ws1 });
    const { key: defaultUserKey } = await keyOf();
    const own = await add(memberKey, { title: 'member own', public_key: sshKey('ed25519') }, ws1);
    expect(own.status).toBe(201);

    // The Workspace administrator adds, sees, renames and deletes the member's keys in its Workspace.
    const byAdmin = await add(wsAdminKey, { title: 'by admin', user_id: member.id, public_key: sshKey('ed25519') }, ws1);
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.user_id).toBe(member.id);
    const adminList = await t.api.get(`/public_keys?user_id=${member.id}`, { key: wsAdminKey, workspace: ws1 });
    expect(adminList.body.map((k: { id: number }) => k.id)).toEqual([own.body.id, byAdmin.body.id]);
    expect((await t.api.get('/public_keys', { key: wsAdminKey, workspace: ws1 })).body.map((k: { id: number }) => k.id)).toEqual(expect.arrayContaining([own.body.id, byAdmin.body.id]));
    expect((await t.api.patch(`/public_keys/${own.body.id}`, { title: 'renamed by admin' }, { key: wsAdminKey, workspace: ws1 })).status).toBe(200);

    // The Site Administrator (the bootstrap key) reaches them too, in context 0 and in ws1.
    expect((await t.api.get(`/public_keys/${own.body.id}`, { key: BOOTSTRAP_KEY })).status).toBe(200);
    expect((await t.api.get(`/public_keys?user_id=${member.id}`, { key: BOOTSTRAP_KEY, workspace: ws1 })).body).toHaveLength(2);
    expect((await t.api.get(`/public_keys/${own.body.id}`, { key: BOOTSTRAP_KEY, workspace: ws2 })).status).toBe(404);

    // Everyone else: the key is not-found, the user user-not-found, the listing has nothing of them.
    for (const [who, key, workspace] of [['peer', peerKey, ws1], ['other admin', otherAdminKey, ws2], ['default user', defaultUserKey, undefined]] as const) {
      const opts = { key, ...(workspace === undefined ? {} : { workspace }) };
      for (const response of [
        await t.api.get(`/public_keys/${own.body.id}`, opts),
        await t.api.patch(`/public_keys/${own.body.id}`, { title: 'taken' }, opts),
        await t.api.delete(`/public_keys/${own.body.id}`, opts),
      ]) {
        expect({ who, status: response.status, type: response.body.type }).toEqual({ who, status: 404, type: 'not-found' });
      }
      const listing = await t.api.get(`/public_keys?user_id=${member.id}`, opts);
      expect({ who, status: listing.status, type: listing.body.type }).toEqual({ who, status: 404, type: 'not-found/user-not-found' });
      const adding = await add(key, { title: 'sneaky', user_id: member.id, public_key: sshKey('ed25519') }, workspace);
      expect({ who, status: adding.status, type: adding.body.type }).toEqual({ who, status: 404, type: 'not-found/user-not-found' });
      const all = await t.api.get('/public_keys', opts);
      expect(all.body.map((k: { user_id: number }) => k.user_id)).not.toContain(member.id);
    }
    const unknown = await add(wsAdminKey, { title: 'nobody', user_id: 987654, public_key: sshKey('ed25519') }, ws1);
    expect(unknown.body.type).toBe('not-found/user-not-found');

    expect((await t.api.delete(`/public_keys/${byAdmin.body.id}`, { key: wsAdminKey, workspace: ws1 })).status).toBe(204);
    expect((await t.api.delete(`/public_keys/${own.body.id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
  });

  it('refuses a files_only key, and asks a site-wide key whose key it adds', async () => {
    const user = await createUser(t.database.db);
    const filesOnly = await createApiKey(t.database.db, { userId: user.id, permissionSet: 'files_only' });
    const refused = await add(filesOnly, { title: 'k', public_key: sshKey('ed25519') });
    expect([refused.status, refused.body.type]).toEqual([403, 'not-authorized/api-key-is-files-only']);
    expect((await t.api.get('/public_keys', { key: filesOnly })).body.type).toBe('not-authorized/api-key-is-files-only');
    const siteWide = await add(BOOTSTRAP_KEY, { title: 'k', public_key: sshKey('ed25519') });
    expect([siteWide.status, siteWide.body.type]).toEqual([400, 'bad-request/request-params-required']);
    expect((await t.api.get('/public_keys?user_id=0', { key: BOOTSTRAP_KEY })).body).toEqual([]);
    const forUser = await add(BOOTSTRAP_KEY, { title: 'k', user_id: user.id, public_key: sshKey('ed25519') });
    expect(forUser.status).toBe(201);
  });

  it('asks a session for its password to add or delete a key, not to list or rename', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const session = (await t.api.post('/sessions', { username: user.username, password: PASSWORD })).body.id as string;
    const body = { title: 'from the console', public_key: sshKey('ed25519') };
    const missing = await t.api.post('/public_keys', body, { session });
    expect([missing.status, missing.body.type]).toEqual([403, 'not-authorized/reauthentication-needed-action']);
    const wrong = await t.api.post('/public_keys', body, { session, headers: { [REAUTH]: 'password:wrong' } });
    expect(wrong.body.type).toBe('not-authorized/reauthentication-failed');
    // A bad key is refused before the password is asked for.
    const bad = await t.api.post('/public_keys', { title: 'bad', public_key: 'nonsense' }, { session });
    expect(bad.body.type).toBe('processing-failure/model-save-error');
    expect((await t.api.get('/public_keys', { session })).body).toEqual([]);
    const created = await t.api.post('/public_keys', body, { session, headers: { [REAUTH]: `password:${PASSWORD}` } });
    expect(created.status).toBe(201);
    expect((await t.api.patch(`/public_keys/${created.body.id}`, { title: 'renamed' }, { session })).status).toBe(200);
    const notYet = await t.api.delete(`/public_keys/${created.body.id}`, { session });
    expect(notYet.body.type).toBe('not-authorized/reauthentication-needed-action');
    expect((await t.api.delete(`/public_keys/${created.body.id}`, { session, headers: { [REAUTH]: `password:${PASSWORD}` } })).status).toBe(204);
  });

  it('records additions, renames and deletions in History, in the Workspace of the key user', async () => {
    const { user, key } = await keyOf({ workspaceId: ws1 });
    const created = await add(key, { title: 'recorded', public_key: sshKey('ecdsa', 256) }, ws1);
    const id = created.body.id as number;
    const made = await latest('public_key_create');
    expect(made).toMatchObject({ workspace_id: ws1, user_id: user.id, interface: 'restapi', display: `Added SSH key of ${user.username} "recorded"` });
    expect(JSON.parse(made!.targets!)).toEqual({ id, user_id: user.id, username: user.username, title: 'recorded', algorithm: 'ecdsa-sha2-nistp256', fingerprint_sha256: created.body.fingerprint_sha256 });
    await t.api.patch(`/public_keys/${id}`, { title: 'renamed' }, { key, workspace: ws1 });
    expect(JSON.parse((await latest('public_key_update'))!.targets!)).toMatchObject({ id, before: { title: 'recorded' }, after: { title: 'renamed' } });
    const updates = await t.database.db.selectFrom('history').select('id').where('action', '=', 'public_key_update').execute();
    await t.api.patch(`/public_keys/${id}`, { title: 'renamed' }, { key, workspace: ws1 });
    expect(await t.database.db.selectFrom('history').select('id').where('action', '=', 'public_key_update').execute()).toHaveLength(updates.length);
    await t.api.delete(`/public_keys/${id}`, { key, workspace: ws1 });
    expect(await latest('public_key_destroy')).toMatchObject({ workspace_id: ws1, display: `Deleted SSH key of ${user.username} "renamed"` });
    // The History API lists them with the action names of docs/history.md.
    const listed = await t.api.get(`/history?filter[action]=public_key_destroy`, { key: BOOTSTRAP_KEY });
    expect(listed.status).toBe(200);
    expect(listed.body.some((r: { action: string }) => r.action === 'public_key_destroy')).toBe(true);
  });

  it('pages the listing with the cursor headers', async () => {
    const { key } = await keyOf();
    for (let i = 0; i < 3; i += 1) await add(key, { title: `page ${i}`, public_key: sshKey('ed25519') });
    const first = await t.api.get('/public_keys?per_page=2', { key });
    expect(first.body).toHaveLength(2);
    const cursor = first.headers.get('x-service-cursor-next') ?? first.headers.get('x-service-cursor');
    expect(cursor).toBeTruthy();
    const second = await t.api.get(`/public_keys?per_page=2&cursor=${encodeURIComponent(cursor!)}`, { key });
    expect(second.body.map((k: { title: string }) => k.title)).toEqual(['page 2']);
  });

  it('deletes the keys of a deleted user', async () => {
    const { user, key } = await keyOf();
    const created = await add(key, { title: 'doomed', public_key: sshKey('ed25519') });
    expect(created.status).toBe(201);
    expect((await t.api.delete(`/users/${user.id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
    expect(await t.database.db.selectFrom('public_keys').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect((await t.api.get(`/public_keys/${created.body.id}`, { key: BOOTSTRAP_KEY })).status).toBe(404);
  });

  it('gives SFTP sign-in the key a client presents, by its wire bytes, and records its use', async () => {
    const { user, key } = await keyOf();
    const line = sshKey('rsa', 2048);
    const created = await add(key, { title: 'sftp', public_key: line });
    const blob = (ssh2.utils.parseKey(line) as ssh2.ParsedKey).getPublicSSH();
    const db = t.database.db;
    expect(await publicKeyOfUserMatching(db, user.id, 'rsa-sha2-256', blob)).toEqual({ id: created.body.id });
    expect((await publicKeyMatches(db, user.id, blob))?.id).toBe(created.body.id);
    const other = (ssh2.utils.parseKey(sshKey('rsa', 2048)) as ssh2.ParsedKey).getPublicSSH();
    expect(await publicKeyOfUserMatching(db, user.id, 'ssh-rsa', other)).toBeUndefined();
    expect(await publicKeyOfUserMatching(db, (await createUser(db)).id, 'ssh-rsa', blob)).toBeUndefined();
    const at = Date.parse('2026-03-04T05:06:07Z');
    await touchPublicKeyLogin(db, created.body.id, at);
    await touchPublicKeyLogin(db, created.body.id, at + 1000);
    expect((await t.api.get(`/public_keys/${created.body.id}`, { key })).body.last_login_at).toBe('2026-03-04T05:06:07Z');
  });
});
