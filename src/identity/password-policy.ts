import type { Db } from '../db/database.js';
import { AtriumError } from '../errors/atrium-error.js';
import { passwordHashOfUser } from '../repositories/user-credentials.js';
import { verifyPassword } from './passwords.js';
import { readSiteSettings } from './site-settings.js';

// argon2 reads the whole password; a bound keeps a hostile body from costing more than a login.
const MAX_PASSWORD_LENGTH = 1024;

/**
 * A new password needs only the site's minimum length (NIST 800-63B: no composition rules).
 * Too short or too long is `processing-failure/model-save-error` on the `password` field.
 */
export async function checkNewPassword(db: Db, password: string): Promise<void> {
  const { password_min_length: minimum } = await readSiteSettings(db);
  const length = [...password].length;
  // The message names the setting, so whoever meets it (an identity provider's administrator
  // reading a failed provisioning) knows which of the site's rules to compare with their own.
  if (length < minimum) {
    throw passwordError(`is too short (minimum is ${minimum} characters)`, `Password is too short: the site setting password_min_length asks for at least ${minimum} characters.`);
  }
  if (length > MAX_PASSWORD_LENGTH) throw passwordError(`is too long (maximum is ${MAX_PASSWORD_LENGTH} characters)`, `Password is too long (maximum is ${MAX_PASSWORD_LENGTH} characters).`);
}

/**
 * The change a required password change asks for must be a change: the password an administrator
 * handed over is not kept by sending it again.
 */
export async function checkPasswordDiffers(db: Db, userId: number, password: string): Promise<void> {
  const hash = await passwordHashOfUser(db, userId);
  if (hash !== null && (await verifyPassword(hash, password))) {
    throw passwordError('must differ from the current password', 'The new password must differ from the current one: a password change is required.');
  }
}

function passwordError(fieldMessage: string, message: string): AtriumError {
  return new AtriumError('processing-failure/model-save-error', message, { modelErrors: { password: [fieldMessage] } });
}
