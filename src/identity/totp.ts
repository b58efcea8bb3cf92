import { generateSecret, generateURI, verify } from 'otplib';
import type { Db } from '../db/database.js';
import { findTotp, takeTotpStep } from '../repositories/totp-secrets.js';
import type { SecretBox } from './secret-box.js';

/** A code is six digits (the authenticator apps' default, RFC 6238 with SHA-1 and 30-second steps). */
const CODE = /^\d{6}$/;
/**
 * Seconds either side of now a code is still taken for: one step, so that a clock a little off or
 * a code typed as it changes still works; no more, so a seen code is worth little for long.
 */
const TOLERANCE_SECONDS = 30;

/** A new authenticator-app secret: 160 random bits in base32, as the apps expect. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The `otpauth://` address a QR code carries into an authenticator app. */
export function totpUri(secret: string, issuer: string, account: string): string {
  return generateURI({ issuer, label: account, secret });
}

/** The context a user's secret is sealed under: a sealed secret copied to another user does not open. */
export function totpSealContext(userId: number): string {
  return `totp:${userId}`;
}

/**
 * Whether `code` is the user's current authenticator code (pending or confirmed enrolment, as
 * `pending` says), taking its 30-second step so that the same code, or an earlier one, is never
 * accepted again. A confirmed enrolment is what it confirms.
 */
export async function acceptTotpCode(db: Db, box: SecretBox, userId: number, code: string, now: number, pending: boolean): Promise<boolean> {
  const stored = await findTotp(db, userId);
  if (stored === undefined || (stored.confirmedAt === null) !== pending) return false;
  const token = code.replace(/\s+/g, '');
  if (!CODE.test(token)) return false;
  const secret = box.open(stored.secretSealed, totpSealContext(userId));
  const result = await verify({ secret, token, epoch: Math.floor(now / 1000), epochTolerance: TOLERANCE_SECONDS });
  if (!result.valid || !('timeStep' in result)) return false;
  return takeTotpStep(db, userId, result.timeStep, now);
}
