import argon2 from 'argon2';

/**
 * argon2id at OWASP's first recommended setting (19 MiB, 2 passes, 1 lane). A login costs
 * one hash by design; see docs/benchmarks.md for logins per second per core.
 */
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * An argon2id hash, with the same parameters as HASH_OPTIONS, of 256 random bits nobody kept.
 * Verifying against it costs what verifying a real password costs, so a login for an unknown
 * user (or one without a password) takes as long as a wrong password and reveals nothing.
 * A test checks that its parameters follow HASH_OPTIONS.
 */
export const DUMMY_PASSWORD_HASH = '$argon2id$v=19$m=19456,p=1,t=2$ILb8dqkTSTwr02wx+JgreA$4yT1qOnt3iMWGHn+CwVBwM/me3sFYmOjMm4rp022X7U';

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, HASH_OPTIONS);
}

/** False for a wrong password or an unreadable hash; never throws on bad input. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/**
 * Verifies `password` against `hash`, or, when there is no hash (unknown user, account without a
 * password), spends the same time on the dummy hash and answers false.
 */
export async function verifyPasswordOrDummy(hash: string | null | undefined, password: string): Promise<boolean> {
  if (hash === null || hash === undefined) {
    await verifyPassword(DUMMY_PASSWORD_HASH, password);
    return false;
  }
  return verifyPassword(hash, password);
}
