import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import ssh2 from 'ssh2';
import type { ParsedKey } from 'ssh2';
import { SFTP_HOST_KEY_DIR } from '../db/data-dir.js';
import { generateOpenSshKeyPair, type OpenSshKeyPair } from '../lib/openssh-key-pair.js';

// ssh2 is CommonJS: its values come from the default export under Node's ESM.
const { utils } = ssh2;

/** The server's host keys: the private keys ssh2 serves, and what clients are told to expect. */
export interface HostKeys {
  privateKeys: Buffer[];
  fingerprints: HostKeyFingerprint[];
}

export interface HostKeyFingerprint {
  /** The key's type as SSH names it: `ssh-ed25519`, `ssh-rsa`. */
  type: string;
  /** As `ssh-keygen -lf` prints it and clients show it on first connection: `SHA256:` and unpadded base64. */
  sha256: string;
}

const GENERATED = [
  { file: 'ssh_host_ed25519_key', type: 'ed25519' as const },
  // RSA for older clients only; 3072 bits, signed with SHA-2 (algorithms.ts).
  { file: 'ssh_host_rsa_key', type: 'rsa' as const, bits: 3072 },
];

/**
 * The host keys: those of ATRIUM_SFTP_HOST_KEY_FILES when set (OpenSSH or PEM private keys,
 * unencrypted), else the ones generated on the first start into `<dataDir>/sftp-host-keys/`
 * (directory 0700, files 0600) and read from there ever after: a new key at every start would
 * make every client's known_hosts entry wrong.
 */
export async function loadHostKeys(options: { dataDir: string; files: readonly string[] | undefined }): Promise<HostKeys> {
  const sources = options.files !== undefined && options.files.length > 0 ? options.files : await generatedKeyFiles(options.dataDir);
  const privateKeys: Buffer[] = [];
  const fingerprints: HostKeyFingerprint[] = [];
  for (const file of sources) {
    const data = await fs.readFile(file).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`SFTP host key ${file} cannot be read: ${error.code ?? error.message}`);
    });
    const parsed = utils.parseKey(data);
    const key = Array.isArray(parsed) ? (parsed[0] as ParsedKey | undefined) : parsed;
    if (key === undefined || key instanceof Error || !key.isPrivateKey()) throw new Error(`SFTP host key ${file} is not an unencrypted private key`);
    privateKeys.push(data);
    fingerprints.push({ type: key.type, sha256: sha256Fingerprint(key.getPublicSSH()) });
  }
  return { privateKeys, fingerprints };
}

/** `SHA256:<base64 without padding>` of a public key blob, as OpenSSH prints it. */
export function sha256Fingerprint(publicKeyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicKeyBlob).digest('base64').replace(/=+$/, '')}`;
}

async function generatedKeyFiles(dataDir: string): Promise<string[]> {
  // Below the data directory, owner-only like the rest of it.
  const dir = path.join(dataDir, SFTP_HOST_KEY_DIR);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.chmod(dir, 0o700);
  const files: string[] = [];
  for (const spec of GENERATED) {
    const file = path.join(dir, spec.file);
    files.push(file);
    if (await exists(file)) continue;
    const pair = await generate(spec);
    // 'wx': two nodes starting at once on a shared directory keep whichever key was written first.
    await fs.writeFile(file, pair.private, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await fs.writeFile(`${file}.pub`, `${pair.public}\n`, { mode: 0o644, flag: 'w' });
  }
  return files;
}

function generate(spec: (typeof GENERATED)[number]): Promise<OpenSshKeyPair> {
  return spec.type === 'rsa'
    ? generateOpenSshKeyPair('rsa', { bits: spec.bits ?? 3072, comment: 'atrium sftp host key' })
    : generateOpenSshKeyPair('ed25519', { comment: 'atrium sftp host key' });
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}
