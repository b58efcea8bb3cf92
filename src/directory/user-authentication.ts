import { assertMayChangeAuthentication, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { takeTurn } from '../db/serialise.js';
import { errors } from '../errors/catalogue.js';
import { findSsoProvider } from '../repositories/sso-providers.js';
import { AUTHENTICATION_METHODS, type AuthenticationMethod, type User, type UserAuthentication } from '../repositories/users.js';

/** `authentication_method` and `sso_strategy_id` as a user's creation or update sends them; absent fields stay. */
export interface AuthenticationInput {
  method?: string;
  ssoStrategyId?: number | null;
}

/**
 * Checks an update's `authentication_method` and `sso_strategy_id` (and a `password` sent with
 * them) before anything of the update is written; undefined when they change nothing (a client
 * sending the user back as it read it). The change is made with the update's other fields.
 *
 * - `sso` with a provider: the user signs in at that provider only and loses its password;
 *   `password`: it signs in with a password again (it has none until one is set, in the same
 *   request or later). Who may change it: access/authentication-authority.ts.
 * - A password is not set for a user who stays `sso`: it could never be used.
 */
export async function planAuthenticationChange(a: Call, user: User, input: AuthenticationInput, passwordSent: boolean): Promise<UserAuthentication | undefined> {
  const current = user.authentication;
  if (input.method === undefined && input.ssoStrategyId === undefined) {
    if (passwordSent && current.method === 'sso') throw passwordForSsoUser();
    return undefined;
  }
  const method = checkedMethod(input.method) ?? current.method;
  const ssoStrategyId = method === 'password' ? null : input.ssoStrategyId === undefined ? current.ssoStrategyId : input.ssoStrategyId;
  if (method === 'password' && input.ssoStrategyId !== undefined && input.ssoStrategyId !== null && input.ssoStrategyId !== current.ssoStrategyId) {
    throw errors.paramsInvalid({ sso_strategy_id: ['is only for a user whose authentication_method is sso'] });
  }
  if (method === 'sso' && passwordSent) throw passwordForSsoUser();
  if (method === current.method && ssoStrategyId === current.ssoStrategyId) return undefined;
  await assertMayChangeAuthentication(a.db, a.caller, user.workspaceId, user.id);
  if (method === 'sso') await checkProvider(a.db, ssoStrategyId);
  return { method, ssoStrategyId };
}

/**
 * The same checks for a user being created (POST /users) in `workspaceId`: `sso` with an existing
 * provider and no password, by an administrator of that Workspace; undefined for a password user
 * (the default).
 */
export async function planNewUserAuthentication(a: Call, workspaceId: number, input: AuthenticationInput, passwordSent: boolean): Promise<UserAuthentication | undefined> {
  const method = checkedMethod(input.method) ?? 'password';
  if (method === 'password') {
    if (input.ssoStrategyId !== undefined && input.ssoStrategyId !== null) throw errors.paramsInvalid({ sso_strategy_id: ['is only for a user whose authentication_method is sso'] });
    return undefined;
  }
  await assertMayChangeAuthentication(a.db, a.caller, workspaceId, null);
  if (passwordSent) throw passwordForSsoUser();
  const ssoStrategyId = input.ssoStrategyId ?? null;
  await checkProvider(a.db, ssoStrategyId);
  return { method, ssoStrategyId };
}

/**
 * Inside the change's transaction, before the user's row is written: a provider being deleted
 * waits, or is found to have this user (sso/providers.ts counts them under the same turn).
 */
export async function holdProvider(tx: Db, authentication: UserAuthentication | undefined): Promise<void> {
  if (authentication?.ssoStrategyId == null) return;
  await takeTurn(tx, `sso-provider:${authentication.ssoStrategyId}`);
  await checkProvider(tx, authentication.ssoStrategyId);
}

function checkedMethod(method: string | undefined): AuthenticationMethod | undefined {
  if (method !== undefined && !(AUTHENTICATION_METHODS as readonly string[]).includes(method)) {
    throw errors.paramsInvalid({ authentication_method: [`must be one of ${AUTHENTICATION_METHODS.join(', ')}`] });
  }
  return method as AuthenticationMethod | undefined;
}

async function checkProvider(db: Db, ssoStrategyId: number | null): Promise<void> {
  if (ssoStrategyId === null) throw errors.paramsRequired({ sso_strategy_id: ['names the provider an sso user signs in with'] });
  if ((await findSsoProvider(db, ssoStrategyId)) === undefined) throw errors.modelSaveError({ sso_strategy_id: ['names no SSO provider'] });
}

function passwordForSsoUser(): Error {
  return errors.modelSaveError({ password: ['cannot be set for a user who signs in with an SSO provider: set authentication_method to password with it'] });
}
