import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { appendEvents, type HistoryEvent, type Recording } from '../history/index.js';
import type { Origin } from '../lib/origin.js';
import { deletePasskeysOfUser, listPasskeysOfUser, type Passkey } from '../repositories/passkeys.js';
import { countUnusedRecoveryCodes, deleteRecoveryCodes } from '../repositories/recovery-codes.js';
import { endPartialSessionsOfUser } from '../repositories/partial-sessions.js';
import { endSessionsOfUser } from '../repositories/sessions.js';
import { deleteTotp, findTotp, putPendingTotp } from '../repositories/totp-secrets.js';
import type { User } from '../repositories/users.js';
import { issueRecoveryCodes, RECOVERY_CODE_COUNT } from './recovery-codes.js';
import type { SecretBox } from './secret-box.js';
import { readSiteSettings } from './site-settings.js';
import { acceptTotpCode, newTotpSecret, totpSealContext, totpUri } from './totp.js';
import { hasSecondFactor, mustUseTwoFactor, secondFactorsOf, type TwoFactorMethod } from './two-factor-policy.js';

/**
 * A user setting up, or taking down, their own second factors (docs/authentication.md#two-factor-authentication).
 * Who may (the user, with a session and reauthentication, or with the partial session of a
 * required enrolment) is access/'s rule, checked by the caller; these act for `user`.
 *
 * Every change of a user's second factors ends the user's other sessions (a session opened
 * before it was answered with what is now gone, or without what is now needed) and is recorded in
 * History.
 */
export interface Enrolling {
  user: User;
  /** The session making the change, kept open; undefined for a partial session's enrolment. */
  keepSessionId: number | undefined;
  now: number;
  origin: Origin;
}

export interface TwoFactorStatus {
  required: boolean;
  totp: boolean;
  /** An authenticator app being set up, waiting for its first code. */
  totpPending: boolean;
  passkeys: Passkey[];
  recoveryCodesLeft: number;
  methodsAllowed: TwoFactorMethod[];
}

export async function twoFactorStatus(db: Db, user: User): Promise<TwoFactorStatus> {
  const settings = await readSiteSettings(db);
  const totp = await findTotp(db, user.id);
  const methodsAllowed: TwoFactorMethod[] = [];
  if (settings.allowed_2fa_method_totp) methodsAllowed.push('totp');
  if (settings.allowed_2fa_method_webauthn) methodsAllowed.push('webauthn');
  return {
    required: mustUseTwoFactor(settings, user),
    totp: totp?.confirmedAt != null,
    totpPending: totp !== undefined && totp.confirmedAt === null,
    passkeys: await listPasskeysOfUser(db, user.id),
    recoveryCodesLeft: await countUnusedRecoveryCodes(db, user.id),
    methodsAllowed,
  };
}

/**
 * Starts setting up an authenticator app: a new secret, sealed, waiting for its first code, and
 * the `otpauth://` address for the app's QR code. Starting again replaces a secret still waiting;
 * an app already set up must be removed first (replacing it here would end it before its
 * successor works).
 */
export async function startTotpEnrolment(db: Db, box: SecretBox, e: Enrolling): Promise<{ secret: string; uri: string }> {
  const settings = await readSiteSettings(db);
  if (!settings.allowed_2fa_method_totp) throw errors.twoFactorMethodNotAllowed('an authenticator app');
  const existing = await findTotp(db, e.user.id);
  if (existing?.confirmedAt != null) {
    throw errors.modelSaveError({ totp: ['is already set up: remove it first (DELETE /2fa/totp) to set up another authenticator app'] });
  }
  const secret = newTotpSecret();
  await putPendingTotp(db, e.user.id, box.seal(secret, totpSealContext(e.user.id)), e.now);
  return { secret, uri: totpUri(secret, settings.name, e.user.username) };
}

/**
 * Confirms the authenticator app with its first code. A user's first second factor comes with
 * recovery codes, answered here once; a user who already had codes keeps them (and gets none).
 */
export async function confirmTotpEnrolment(db: Db, box: SecretBox, e: Enrolling, otp: string): Promise<{ recoveryCodes: string[] }> {
  const existing = await findTotp(db, e.user.id);
  if (existing === undefined || existing.confirmedAt !== null) throw errors.twoFactorSetupNotStarted();
  const hadCodes = (await countUnusedRecoveryCodes(db, e.user.id)) > 0;
  if (!(await acceptTotpCode(db, box, e.user.id, otp, e.now, true))) throw errors.oneTimePasswordIncorrect();
  const recoveryCodes = hadCodes ? [] : await issueRecoveryCodes(db, e.user.id, e.now);
  await afterChange(db, e, [event(e, 'two_factor_create', `${e.user.username} set up an authenticator app for two-factor authentication`)]);
  return { recoveryCodes };
}

/** Removes the authenticator app; with no second factor left, the recovery codes go too. */
export async function removeTotp(db: Db, e: Enrolling): Promise<void> {
  if (!(await deleteTotp(db, e.user.id))) throw errors.notFound('No authenticator app is set up.');
  const left = await secondFactorsOf(db, e.user.id);
  if (!hasSecondFactor(left)) await deleteRecoveryCodes(db, e.user.id);
  await afterChange(db, e, [event(e, 'two_factor_destroy', `${e.user.username} removed their authenticator app`)]);
}

/** A new set of recovery codes in place of the old, for a user with a second factor. */
export async function regenerateRecoveryCodes(db: Db, e: Enrolling): Promise<string[]> {
  if (!hasSecondFactor(await secondFactorsOf(db, e.user.id))) {
    throw errors.modelSaveError({ recovery_codes: ['come with a second factor: set up an authenticator app or a passkey first'] });
  }
  const codes = await issueRecoveryCodes(db, e.user.id, e.now);
  await inTransaction(db, (tx) => appendEvents(tx, recordingOf(e), [event(e, 'recovery_codes_create', `${e.user.username} made ${RECOVERY_CODE_COUNT} new recovery codes; the old ones no longer work`)]));
  return codes;
}

/**
 * Drops every second factor and recovery code of a user, and ends all its sessions and partial
 * sessions: an administrator's reset for a user who lost its device (POST /users/<id>/2fa/reset,
 * `clear_2fa`). Runs in the caller's transaction, which records it when anything was removed.
 */
export async function clearSecondFactors(tx: Db, userId: number, now: number): Promise<boolean> {
  const removedApp = await deleteTotp(tx, userId);
  const removedPasskeys = (await deletePasskeysOfUser(tx, userId)) > 0;
  const removedCodes = await deleteRecoveryCodes(tx, userId);
  await endSessionsOfUser(tx, userId, now);
  await endPartialSessionsOfUser(tx, userId, now);
  return removedApp || removedPasskeys || removedCodes;
}

async function afterChange(db: Db, e: Enrolling, events: HistoryEvent[]): Promise<void> {
  await inTransaction(db, async (tx) => {
    await endSessionsOfUser(tx, e.user.id, e.now, e.keepSessionId);
    await appendEvents(tx, recordingOf(e), events);
  });
}

function event(e: Enrolling, action: 'two_factor_create' | 'two_factor_destroy' | 'recovery_codes_create', display: string): HistoryEvent {
  return { action, workspaceId: e.user.workspaceId, display, targets: { user: { id: e.user.id, username: e.user.username } } };
}

/** How a change of a user's own second factors is recorded: by the user, through the door it came by. */
export function recordingOf(e: Enrolling): Recording {
  return { now: e.now, origin: e.origin, actor: { userId: e.user.id, username: e.user.username, apiKeyId: null } };
}
