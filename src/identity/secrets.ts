import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';

/** Generated API keys start with this, so a leaked key is recognisable in code and logs scanners. */
export const API_KEY_PREFIX = 'atr_';

const LOOKUP_HEX_LENGTH = 16;

export interface HashedSecret {
  /** A prefix of the hash, indexed, used only to find candidate rows. */
  lookup: string;
  /** SHA-256 of the secret, hex. Secrets are 256 random bits, so a fast hash is enough. */
  hash: string;
}

export function newApiKeySecret(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function newSessionId(): string {
  return randomBytes(32).toString('hex');
}

export function hashSecret(secret: string): HashedSecret {
  // The one-shot digest: a third of createHash's cost, which builds a Hash object per call.
  const hash = digest('sha256', secret, 'hex');
  return { lookup: hash.slice(0, LOOKUP_HEX_LENGTH), hash };
}

/** Compares two hex hashes without leaking, through timing, how much of them matched. */
export function hashesEqual(expectedHex: string, actualHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  const actual = Buffer.from(actualHex, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
