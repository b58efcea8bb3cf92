import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SECRET_KEY_FILE } from '../db/data-dir.js';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The sealed form's version: a later key rotation or cipher gets a new prefix, and both are read. */
const VERSION = 'v1.';

/**
 * Seals the secrets Atrium must read back (TOTP secrets, OpenID Connect client secrets) with
 * AES-256-GCM under a key that is not in the database: a copy of the database alone, or of a
 * PostgreSQL dump, reveals none of them. The key is a file in the data directory, generated
 * owner-only on the first start and read by every node from the shared data directory
 * (docs/deployment.md); backups carry it (cli/backup).
 *
 * Each sealed value is bound to a `context` (what it is and whose, such as `totp:12`): a value
 * copied into another row does not open there.
 */
export class SecretBox {
  private key: Buffer | undefined;

  constructor(private readonly keyFile: string) {}

  static inDataDir(dataDir: string): SecretBox {
    return new SecretBox(path.join(dataDir, SECRET_KEY_FILE));
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyBytes(), iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plaintext, or an Error when the value was not sealed under this key and context (or was altered). */
  open(sealed: string, context: string): string {
    if (!sealed.startsWith(VERSION)) throw new Error('sealed secret: unknown format');
    const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret: too short');
    const decipher = createDecipheriv('aes-256-gcm', this.keyBytes(), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** Read (or generated) at first use, so that servers and tests that never seal anything never touch the file. */
  private keyBytes(): Buffer {
    this.key ??= readOrCreateKey(this.keyFile);
    return this.key;
  }
}

function readOrCreateKey(file: string): Buffer {
  try {
    return decodeKey(file, fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx': two nodes starting at once on a shared directory keep whichever key was written first.
    fs.writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKey(file, fs.readFileSync(file, 'utf8'));
}

function decodeKey(file: string, text: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a ${KEY_BYTES}-byte key in base64`);
  return key;
}
