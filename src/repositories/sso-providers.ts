import type { Db } from '../db/database.js';

/** One value of a provider's group claim and the Atrium group it stands for. */
export interface GroupMapping {
  claimValue: string;
  groupId: number;
}

/** What a Site Administrator sets on an OpenID Connect provider (docs/authentication.md#single-sign-on-openid-connect). */
export interface SsoProviderSettings {
  label: string;
  issuerUrl: string;
  clientId: string;
  /** Space-separated; `openid` always among them. */
  scopes: string;
  usernameClaim: string;
  /** The claim that lists the account's groups; null for no group mapping. */
  groupClaim: string | null;
  /** Make an Atrium user at an account's first sign-in (just-in-time). */
  provisionUsers: boolean;
  /** Where users made at their first sign-in land. */
  workspaceId: number;
  enabled: boolean;
  displayOnLoginPage: boolean;
}

export interface SsoProvider extends SsoProviderSettings {
  id: number;
  /** Sealed under the data directory's key; null for a public client (PKCE alone). */
  clientSecretSealed: string | null;
  groupMappings: GroupMapping[];
  createdAt: number;
  updatedAt: number;
}

interface ProviderRow {
  id: number; label: string; issuer_url: string; client_id: string; client_secret_sealed: string | null; scopes: string; username_claim: string;
  group_claim: string | null; provision_users: boolean | number; workspace_id: number; enabled: boolean | number; display_on_login_page: boolean | number;
  created_at: number; updated_at: number;
}

function toProvider(row: ProviderRow, groupMappings: GroupMapping[]): SsoProvider {
  return {
    id: row.id,
    label: row.label,
    issuerUrl: row.issuer_url,
    clientId: row.client_id,
    clientSecretSealed: row.client_secret_sealed,
    scopes: row.scopes,
    usernameClaim: row.username_claim,
    groupClaim: row.group_claim,
    provisionUsers: Boolean(row.provision_users),
    workspaceId: row.workspace_id,
    enabled: Boolean(row.enabled),
    displayOnLoginPage: Boolean(row.display_on_login_page),
    groupMappings,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function settingColumns(settings: Partial<SsoProviderSettings>) {
  const columns = {
    label: settings.label, issuer_url: settings.issuerUrl, client_id: settings.clientId, scopes: settings.scopes, username_claim: settings.usernameClaim,
    group_claim: settings.groupClaim, provision_users: settings.provisionUsers, workspace_id: settings.workspaceId, enabled: settings.enabled,
    display_on_login_page: settings.displayOnLoginPage,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

async function mappingsOf(db: Db, providerIds: readonly number[]): Promise<Map<number, GroupMapping[]>> {
  const byProvider = new Map<number, GroupMapping[]>(providerIds.map((id) => [id, []]));
  if (providerIds.length === 0) return byProvider;
  const rows = await db.selectFrom('sso_provider_groups').select(['provider_id', 'claim_value', 'group_id'])
    .where('provider_id', 'in', providerIds).orderBy('id').execute();
  for (const row of rows) byProvider.get(row.provider_id)?.push({ claimValue: row.claim_value, groupId: row.group_id });
  return byProvider;
}

export async function listSsoProviders(db: Db): Promise<SsoProvider[]> {
  const rows = await db.selectFrom('sso_providers').selectAll().orderBy('id').execute();
  const mappings = await mappingsOf(db, rows.map((row) => row.id));
  return rows.map((row) => toProvider(row, mappings.get(row.id) ?? []));
}

/** The enabled providers shown on the sign-in page, by id: their id and label only (anyone may ask). */
export async function listSignInChoices(db: Db): Promise<{ id: number; label: string }[]> {
  return db.selectFrom('sso_providers').select(['id', 'label']).where('enabled', '=', true).where('display_on_login_page', '=', true).orderBy('id').execute();
}

export async function findSsoProvider(db: Db, id: number): Promise<SsoProvider | undefined> {
  const row = await db.selectFrom('sso_providers').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) return undefined;
  return toProvider(row, (await mappingsOf(db, [id])).get(id) ?? []);
}

export async function issuerTaken(db: Db, issuerUrl: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('sso_providers').select('id').where('issuer_url', '=', issuerUrl);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertSsoProvider(tx: Db, settings: SsoProviderSettings, now: number): Promise<number> {
  const row = await tx.insertInto('sso_providers')
    .values({ ...settingColumns(settings), client_secret_sealed: null, created_at: now, updated_at: now } as never)
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSsoProvider(tx: Db, id: number, settings: Partial<SsoProviderSettings>, now: number): Promise<void> {
  await tx.updateTable('sso_providers').set({ ...settingColumns(settings), updated_at: now }).where('id', '=', id).execute();
}

/** The sealed secret, or null for none (a public client). */
export async function setSsoProviderSecret(tx: Db, id: number, sealed: string | null): Promise<void> {
  await tx.updateTable('sso_providers').set({ client_secret_sealed: sealed }).where('id', '=', id).execute();
}

export async function replaceGroupMappings(tx: Db, providerId: number, mappings: readonly GroupMapping[]): Promise<void> {
  await tx.deleteFrom('sso_provider_groups').where('provider_id', '=', providerId).execute();
  if (mappings.length === 0) return;
  await tx.insertInto('sso_provider_groups')
    .values(mappings.map((m) => ({ provider_id: providerId, claim_value: m.claimValue, group_id: m.groupId })))
    .execute();
}

export async function deleteSsoProvider(tx: Db, id: number): Promise<void> {
  await tx.deleteFrom('sso_providers').where('id', '=', id).execute();
}

/** How many users sign in with the provider alone (`authentication_method` `sso` with it): Files.com's `user_count`. */
export async function ssoUserCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db.selectFrom('users').select(['sso_strategy_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('authentication_method', '=', 'sso').where('sso_strategy_id', 'is not', null).groupBy('sso_strategy_id').execute();
  return new Map(rows.map((row) => [row.sso_strategy_id as number, Number(row.count)]));
}
