import { utils } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY } from '../support/test-app.js';
import { call, startSftpTestApp, type SftpTestApp } from './sftp-fixture.js';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';

/** Public-key sign-in with keys registered through the REST API's /public_keys. */
describe.each(testDatabaseTargets())('SFTP public-key sign-in [$name]', (target) => {
  let t: SftpTestApp;
  beforeAll(async () => { t = await startSftpTestApp(target); });
  afterAll(() => t.close());

  const register = async (userId: number, publicKey: string) => {
    const response = await t.api.post('/public_keys', { user_id: userId, title: 'laptop', public_key: publicKey }, { key: BOOTSTRAP_KEY });
    expect(response.status).toBe(201);
    return response.body.id as number;
  };

  it('signs in with a registered Ed25519 or RSA key, recorded as a login with interface sftp', async () => {
    const user = await createUser(t.database.db);
    for (const pair of [generateOpenSshKeyPairSync('ed25519'), utils.generateKeyPairSync('rsa', { bits: 2048 })]) {
      await register(user.id, pair.public);
      const c = await t.connect({ username: user.username, privateKey: pair.private });
      expect(await call((done) => c.sftp.realpath('.', done))).toBe('/');
      c.close();
    }
    const logins = await t.database.db.selectFrom('history').selectAll().where('user_id', '=', user.id).where('action', '=', 'login').execute();
    expect(logins).toHaveLength(2);
    expect(logins[0]).toMatchObject({ interface: 'sftp' });
  });

  it('refuses a key registered to someone else, an unregistered key, a deleted key and a disabled user', async () => {
    const user = await createUser(t.database.db);
    const other = await createUser(t.database.db);
    const pair = generateOpenSshKeyPairSync('ed25519');
    const id = await register(other.id, pair.public);
    const refused = (privateKey: string, username = user.username) =>
      t.connect({ username, privateKey }).then((c) => { c.close(); return false; }, () => true);
    expect(await refused(pair.private)).toBe(true);
    expect(await refused(generateOpenSshKeyPairSync('ed25519').private, other.username)).toBe(true);
    expect(await refused(pair.private, other.username)).toBe(false);
    await t.database.db.updateTable('users').set({ disabled: true }).where('id', '=', other.id).execute();
    expect(await refused(pair.private, other.username)).toBe(true);
    await t.database.db.updateTable('users').set({ disabled: false }).where('id', '=', other.id).execute();
    expect((await t.api.delete(`/public_keys/${id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
    expect(await refused(pair.private, other.username)).toBe(true);
  });
});
