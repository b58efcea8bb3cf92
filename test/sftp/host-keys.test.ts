import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterEach, describe, expect, it } from 'vitest';
import { SFTP_HOST_KEY_DIR } from '../../src/db/data-dir.js';
import { loadHostKeys, sha256Fingerprint } from '../../src/sftp/host-keys.js';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';

/** SFTP host keys: made once into the data dir, owner-only, kept across starts; or the operator's own. */
describe('SFTP host keys', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-host-keys-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  });

  it('generates Ed25519 and RSA keys on the first start, owner-only, and reads the same ones after', async () => {
    const dataDir = await tempDir();
    const first = await loadHostKeys({ dataDir, files: undefined });
    expect(first.fingerprints.map((key) => key.type)).toEqual(['ssh-ed25519', 'ssh-rsa']);
    for (const key of first.fingerprints) expect(key.sha256).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const dir = path.join(dataDir, SFTP_HOST_KEY_DIR);
    expect((await fs.stat(dir)).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.join(dir, 'ssh_host_ed25519_key'))).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.join(dir, 'ssh_host_rsa_key'))).mode & 0o777).toBe(0o600);
    const rsa = ssh2.utils.parseKey(await fs.readFile(path.join(dir, 'ssh_host_rsa_key')));
    expect(rsa instanceof Error ? 0 : (rsa as { getPublicSSH(): Buffer }).getPublicSSH().length).toBeGreaterThan(390);
    const again = await loadHostKeys({ dataDir, files: undefined });
    expect(again.fingerprints).toEqual(first.fingerprints);
  });

  it('uses ATRIUM_SFTP_HOST_KEY_FILES instead, and stops at a key it cannot use', async () => {
    const dir = await tempDir();
    const pair = generateOpenSshKeyPairSync('ed25519');
    const file = path.join(dir, 'own_key');
    await fs.writeFile(file, pair.private, { mode: 0o600 });
    const keys = await loadHostKeys({ dataDir: dir, files: [file] });
    const publicKey = ssh2.utils.parseKey(pair.public) as { getPublicSSH(): Buffer };
    expect(keys.fingerprints).toEqual([{ type: 'ssh-ed25519', sha256: sha256Fingerprint(publicKey.getPublicSSH()) }]);
    await expect(fs.access(path.join(dir, SFTP_HOST_KEY_DIR))).rejects.toThrow();
    await expect(loadHostKeys({ dataDir: dir, files: [path.join(dir, 'missing')] })).rejects.toThrow(/cannot be read/);
    await fs.writeFile(path.join(dir, 'public_only'), pair.public);
    await expect(loadHostKeys({ dataDir: dir, files: [path.join(dir, 'public_only')] })).rejects.toThrow(/not an unencrypted private key/);
  });
});
