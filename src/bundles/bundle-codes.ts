import { randomBytes } from 'node:crypto';
import { errors } from '../errors/catalogue.js';

// A share link's code: the last part of its URL (`/f/<code>`), and all that stands between the
// link and whoever guesses it. A code Atrium makes is 128 random bits; a code a creator chooses
// (where the site allows it, `allow_bundle_names`) is theirs to make hard to guess, and a password
// is the way to protect a link whose code is easy.

/** Characters a code may hold: URL-safe as they are, so a code is its own URL segment. */
const CODE_FORM = /^[A-Za-z0-9_-]+$/;
export const CODE_MIN_LENGTH = 6;
export const CODE_MAX_LENGTH = 100;

/** A new random code: 16 bytes from the system's generator, base64url (22 characters). */
export function randomBundleCode(): string {
  return randomBytes(16).toString('base64url');
}

/** A code a creator chose, as it will be kept, or `processing-failure/invalid-bundle-code`. */
export function checkChosenCode(raw: string): string {
  const code = raw.trim();
  if (code.length < CODE_MIN_LENGTH || code.length > CODE_MAX_LENGTH) {
    throw errors.invalidBundleCode(`A share link's code is ${CODE_MIN_LENGTH} to ${CODE_MAX_LENGTH} characters long.`);
  }
  if (!CODE_FORM.test(code)) throw errors.invalidBundleCode("A share link's code holds only letters A to Z and a to z, digits, '-' and '_'.");
  return code;
}
