import { randomInt } from 'node:crypto';
import type { Db } from '../db/database.js';
import { replaceRecoveryCodes, spendRecoveryCode, unusedRecoveryCodes } from '../repositories/recovery-codes.js';
import { hashesEqual, hashSecret } from './secrets.js';

export const RECOVERY_CODE_COUNT = 10;
/** Lower-case letters and digits without the ones people confuse (0/o, 1/l/i): 31 symbols. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** 16 symbols of 31: about 79 random bits, far beyond guessing within the login limits. */
const GROUPS = 4;
const GROUP_LENGTH = 4;

/**
 * Gives the user a new set of recovery codes, replacing any earlier set, and answers them: they
 * are shown once and kept only as hashes (SHA-256 suffices for 79 random bits).
 */
export async function issueRecoveryCodes(db: Db, userId: number, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(db, userId, codes.map((code) => hashSecret(normalise(code)).hash), now);
  return codes;
}

/** Whether `text` is one of the user's unused recovery codes; when it is, it is spent. */
export async function spendRecoveryCodeOf(db: Db, userId: number, text: string, now: number): Promise<boolean> {
  const typed = normalise(text);
  if (typed.length !== GROUPS * GROUP_LENGTH) return false;
  const hash = hashSecret(typed).hash;
  // Every unused code is compared, in constant time, whichever matches.
  let match: number | undefined;
  for (const code of await unusedRecoveryCodes(db, userId)) if (hashesEqual(code.codeHash, hash)) match = code.id;
  return match !== undefined && spendRecoveryCode(db, match, now);
}

/** Whether a typed answer looks like a recovery code rather than a six-digit code. */
export function looksLikeRecoveryCode(text: string): boolean {
  return normalise(text).length === GROUPS * GROUP_LENGTH;
}

function newRecoveryCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** Codes are typed in any case, with or without the dashes and spaces. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/[\s-]+/g, '');
}
