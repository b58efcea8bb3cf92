import { accountActive } from '../access/index.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { checkUsername, checkText, followGroupClaim, userCreated } from '../directory/index.js';
import { AtriumError } from '../errors/atrium-error.js';
import { type Actor, appendEvents, type FailureType, type HistoryEvent } from '../history/index.js';
import { openSession, type NewSession } from '../identity/index.js';
import { activity } from '../lib/activity.js';
import type { Origin } from '../lib/origin.js';
import { isUniqueViolation } from '../repositories/constraint-errors.js';
import { findLinkBySubject, insertLink, touchLink } from '../repositories/sso-links.js';
import type { SsoProvider } from '../repositories/sso-providers.js';
import { findLoginAccount } from '../repositories/user-credentials.js';
import { findUserById, insertUser, type User, usernameKey } from '../repositories/users.js';
import { workspaceExists } from '../repositories/workspaces.js';
import type { VerifiedAccount } from './openid.js';
import { SsoRefusal } from './refusal.js';

/** The claim read for a user name when the configured one is missing. */
const FALLBACK_USERNAME_CLAIM = 'email';

export interface ProviderSignIn {
  provider: SsoProvider;
  account: VerifiedAccount;
  origin: Origin;
  encrypted: boolean;
  now: number;
}

/**
 * Signs in the Atrium user an account the provider vouched for is (openid.ts checked the ID
 * token), and starts a console session for it. The account is found by its link (issuer and
 * `sub`), never by a name. Without a link:
 * - an Atrium user with the account's user name exists: refused (`not_linked`). Signing it in
 *   would hand a password user's account to whoever holds that name at the provider; an
 *   administrator links it instead (links.ts);
 * - the provider makes users (just-in-time): a user is made in its Workspace, with no password
 *   (`authentication_method` `sso`), linked to the account;
 * - otherwise refused (`no_account`).
 * On every sign-in the mapped groups follow the group claim (directory's followGroupClaim), and
 * then the user's own settings, which read its groups, admit it or not (openSession). Each sign-in,
 * and each refusal, is recorded in History with the provider's name. Nothing here asks for a
 * password or a second factor: the provider's sign-in is the proof.
 */
export async function signInWithProvider(db: Db, input: ProviderSignIn): Promise<NewSession> {
  const { provider, account, now } = input;
  const link = await findLinkBySubject(db, account.issuer, account.subject);
  let user: User;
  let linkId: number;
  let created = false;
  if (link !== undefined) {
    const linked = await findUserById(db, link.userId);
    if (linked === undefined) throw await refuse(db, input, undefined, 'sso_refused', 'failed', 'the linked user is gone');
    user = linked;
    linkId = link.id;
  } else {
    const username = usernameOf(provider, account);
    if (username === undefined) throw await refuse(db, input, undefined, 'sso_refused', 'no_username', `the provider sent no usable ${provider.usernameClaim} or ${FALLBACK_USERNAME_CLAIM} claim`);
    const existing = await findLoginAccount(db, usernameKey(username));
    if (existing !== undefined) {
      throw await refuse(db, input, existing.user, 'sso_not_linked', 'not_linked', 'an Atrium user has this user name, but the account is not linked to it', username);
    }
    if (!provider.provisionUsers) throw await refuse(db, input, undefined, 'username_not_found', 'no_account', 'no Atrium user is linked to this account, and the provider makes none', username);
    if (!(await workspaceExists(db, provider.workspaceId))) throw await refuse(db, input, undefined, 'sso_refused', 'failed', `the provider's Workspace ${provider.workspaceId} no longer exists`, username);
    const made = await createUserOnSignIn(db, input, username);
    if (made === undefined) {
      // Another request made the name meanwhile: the same account's other first sign-in (then it is
      // linked, and this one signs in as it), or someone else's user (refused as above).
      const madeMeanwhile = await findLinkBySubject(db, account.issuer, account.subject);
      const linkedUser = madeMeanwhile === undefined ? undefined : await findUserById(db, madeMeanwhile.userId);
      if (madeMeanwhile === undefined || linkedUser === undefined) throw await refuse(db, input, undefined, 'sso_not_linked', 'not_linked', 'an Atrium user with this user name was made meanwhile', username);
      user = linkedUser;
      linkId = madeMeanwhile.id;
    } else {
      ({ user, linkId } = made);
      created = true;
    }
  }

  if (!accountActive(user, now)) throw await refuse(db, input, user, 'disabled', 'disabled', 'the user is disabled');
  // The groups first: whether the user's settings let it in (openSession) reads its groups' flags and addresses.
  const signedInUser = await inTransaction(db, async (tx) => {
    const { user: current, events } = await followGroupClaim(tx, user, mappedGroups(provider), wantedGroups(provider, account), now);
    if (current === undefined) return undefined;
    await touchLink(tx, linkId, now);
    await appendEvents(tx, recordingOf(input, current), events);
    return current;
  });
  if (signedInUser === undefined) throw await refuse(db, input, undefined, 'sso_refused', 'failed', 'the linked user is gone');
  let session: NewSession;
  try {
    // A user whose own settings close the console (REST) or this address gets no session.
    session = await openSession(db, now, signedInUser, { clientIp: input.origin.ip ?? '', interface: 'web', encrypted: input.encrypted });
  } catch (error) {
    if (error instanceof AtriumError) throw new SsoRefusal('not_allowed', error.message);
    throw error;
  }
  await inTransaction(db, (tx) => appendEvents(tx, recordingOf(input, signedInUser), [signedIn(provider, signedInUser, created)]));
  activity.emit('login-succeeded');
  return session;
}

/** The account's user name: the configured claim, or its email when that claim is missing; undefined when neither is a usable name. */
function usernameOf(provider: SsoProvider, account: VerifiedAccount): string | undefined {
  for (const claim of [provider.usernameClaim, FALLBACK_USERNAME_CLAIM]) {
    const value = account.claims[claim];
    if (typeof value !== 'string' || value.trim() === '') continue;
    try {
      return checkUsername(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function textClaim(account: VerifiedAccount, claim: string, field: string): string {
  const value = account.claims[claim];
  if (typeof value !== 'string') return '';
  try {
    return checkText(field, value);
  } catch {
    return '';
  }
}

/**
 * A user for an account's first sign-in, in the provider's Workspace: no password
 * (`authentication_method` `sso`, `sso_strategy_id` the provider), its name and email from the
 * claims, linked to the account; undefined when its user name was taken meanwhile.
 */
async function createUserOnSignIn(db: Db, input: ProviderSignIn, username: string): Promise<{ user: User; linkId: number } | undefined> {
  const { provider, account, now } = input;
  try {
    return await inTransaction(db, async (tx) => {
      const user = await insertUser(tx, {
        workspaceId: provider.workspaceId, username, passwordHash: null, now,
        name: textClaim(account, 'name', 'name'), email: textClaim(account, 'email', 'email'),
        authentication: { method: 'sso', ssoStrategyId: provider.id },
      });
      const linkId = await insertLink(tx, { providerId: provider.id, issuer: account.issuer, subject: account.subject, userId: user.id, now });
      const event = userCreated(user, []);
      await appendEvents(tx, recordingOf(input, user), [{ ...event, display: `${event.display} at first sign-in with ${provider.label}`, targets: { ...event.targets, sso_provider: providerTarget(provider) } }]);
      return { user, linkId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** The claim's values: a list of strings, or one string (some providers send a single group so). */
function claimValues(claims: Record<string, unknown>, name: string): Set<string> {
  const value = claims[name];
  if (typeof value === 'string') return new Set([value]);
  if (Array.isArray(value)) return new Set(value.filter((item): item is string => typeof item === 'string'));
  return new Set();
}

/** The groups the provider maps a claim value to: the only ones its sign-ins change (none without a group claim). */
function mappedGroups(provider: SsoProvider): number[] {
  return provider.groupClaim === null ? [] : [...new Set(provider.groupMappings.map((m) => m.groupId))];
}

/** Of those, the groups whose claim value the account carries: the user belongs to these, and to no other mapped one. */
function wantedGroups(provider: SsoProvider, account: VerifiedAccount): Set<number> {
  if (provider.groupClaim === null) return new Set();
  const values = claimValues(account.claims, provider.groupClaim);
  return new Set(provider.groupMappings.filter((m) => values.has(m.claimValue)).map((m) => m.groupId));
}

function providerTarget(provider: SsoProvider): { id: number; label: string } {
  return { id: provider.id, label: provider.label };
}

function recordingOf(input: ProviderSignIn, user: User | undefined, username?: string): { now: number; origin: Origin; actor: Actor } {
  return { now: input.now, origin: input.origin, actor: { userId: user?.id ?? null, username: user?.username ?? username ?? null, apiKeyId: null } };
}

function signedIn(provider: SsoProvider, user: User, created: boolean): HistoryEvent {
  return {
    action: 'login',
    workspaceId: user.workspaceId,
    display: `${user.username} signed in with ${provider.label} (web)${created ? ', a new user' : ''}`,
    targets: { sso_provider: providerTarget(provider) },
  };
}

/**
 * Records a refused sign-in (`failedlogin`, under the user it concerns when there is one) and
 * answers the refusal to throw. The account's issuer, subject and claimed user name are kept, so
 * that an administrator can link it (links.ts).
 */
async function refuse(db: Db, input: ProviderSignIn, user: User | undefined, failureType: FailureType, code: SsoRefusal['code'], reason: string, username?: string): Promise<SsoRefusal> {
  await recordRefusedSignIn(db, input, user, failureType, reason, { issuer: input.account.issuer, subject: input.account.subject, claimed_username: username ?? null }, username);
  activity.emit('login-failed');
  return new SsoRefusal(code, reason);
}

/** A `failedlogin` record of a sign-in with a provider; `account` what is known of the account (nothing when the provider's answer was refused). */
export async function recordRefusedSignIn(
  db: Db,
  input: { provider: { id: number; label: string }; origin: Origin; now: number },
  user: User | undefined,
  failureType: FailureType,
  reason: string,
  account: Record<string, unknown> = {},
  username?: string,
): Promise<void> {
  const who = user?.username ?? username;
  await inTransaction(db, (tx) => appendEvents(tx, { now: input.now, origin: input.origin, actor: { userId: user?.id ?? null, username: who ?? null, apiKeyId: null } }, [{
    action: 'failedlogin',
    failureType,
    workspaceId: user?.workspaceId ?? null,
    display: `Failed sign-in${who === undefined ? '' : ` as ${who}`} with ${input.provider.label} (web): ${reason}`,
    targets: { sso_provider: { id: input.provider.id, label: input.provider.label }, reason, ...account },
  }]));
}
