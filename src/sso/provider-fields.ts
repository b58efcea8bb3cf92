import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { findGroupById } from '../repositories/groups.js';
import type { GroupMapping, SsoProviderSettings } from '../repositories/sso-providers.js';
import { workspaceExists } from '../repositories/workspaces.js';

export const DEFAULT_SCOPES = 'openid profile email';
export const DEFAULT_USERNAME_CLAIM = 'preferred_username';

const MAX_LABEL = 100;
const MAX_URL = 2048;
const MAX_CLIENT_ID = 1024;
const MAX_SECRET = 4096;
const MAX_CLAIM = 100;
const MAX_CLAIM_VALUE = 1024;
const MAX_MAPPINGS = 500;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
/** A claim's name as providers spell them (`groups`, `cognito:groups`, `https://example.com/roles`). */
const CLAIM_NAME = /^[A-Za-z0-9_.:/-]+$/;
/** OAuth scope tokens (RFC 6749 §3.3): printable ASCII, no space, quote or backslash. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** What a request sends for a provider; absent fields stay as they are (or take their defaults on creation). */
export interface SsoProviderInput {
  label?: string;
  issuerUrl?: string;
  clientId?: string;
  /** Write-only: a new secret; `null` or `''` for none (a public client). */
  clientSecret?: string | null;
  scopes?: string;
  usernameClaim?: string;
  groupClaim?: string | null;
  groupMappings?: readonly GroupMapping[];
  provisionUsers?: boolean;
  workspaceId?: number;
  enabled?: boolean;
  displayOnLoginPage?: boolean;
}

function invalid(field: string, message: string): Error {
  return errors.paramsInvalid({ [field]: [message] });
}

function text(field: string, raw: string, max: number): string {
  const value = raw.trim();
  if (value === '') throw invalid(field, "can't be blank");
  if ([...value].length > max) throw invalid(field, `is too long (maximum is ${max} characters)`);
  if (CONTROL_CHARACTERS.test(value)) throw invalid(field, 'may not contain control characters');
  return value;
}

/**
 * The issuer as the provider names itself in its discovery document: an `https` URL with no
 * query, fragment or credentials. OpenID Connect sends a password-equivalent code and the client
 * secret there, so plain HTTP is never accepted (openid-client refuses it too).
 */
export function checkIssuerUrl(raw: string): string {
  const value = text('issuer_url', raw, MAX_URL);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('issuer_url', 'must be a URL (https://...)');
  }
  if (url.protocol !== 'https:') throw invalid('issuer_url', 'must be an https:// URL: identity providers are reached over HTTPS only');
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw invalid('issuer_url', 'may not carry a query, a fragment or credentials');
  }
  return value;
}

function checkScopes(raw: string): string {
  const scopes = raw.split(/\s+/).filter((scope) => scope !== '');
  if (scopes.some((scope) => !SCOPE.test(scope))) throw invalid('scopes', 'must be scope names separated by spaces');
  if (!scopes.includes('openid')) throw invalid('scopes', 'must include openid');
  if (raw.length > MAX_URL) throw invalid('scopes', `is too long (maximum is ${MAX_URL} characters)`);
  return [...new Set(scopes)].join(' ');
}

function checkClaimName(field: string, raw: string): string {
  const value = text(field, raw, MAX_CLAIM);
  if (!CLAIM_NAME.test(value)) throw invalid(field, 'must be a claim name (letters, digits and _ . : / -)');
  return value;
}

/**
 * The settings of a provider as they will be once `input` is applied to `current` (undefined on
 * creation: the required fields must be sent, the rest take their defaults). The Workspace and the
 * mapped groups must exist, and each group must belong to that Workspace: users made at sign-in
 * land there, and join its groups only.
 */
export async function checkProviderSettings(db: Db, input: SsoProviderInput, current: SsoProviderSettings & { groupMappings: readonly GroupMapping[] } | undefined): Promise<SsoProviderSettings & { groupMappings: GroupMapping[] }> {
  const required = (field: string, value: string | undefined, fallback: string | undefined): string => {
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    throw errors.paramsRequired({ [field]: ["can't be blank"] });
  };
  const label = text('label', required('label', input.label, current?.label), MAX_LABEL);
  const issuerUrl = checkIssuerUrl(required('issuer_url', input.issuerUrl, current?.issuerUrl));
  const clientId = text('client_id', required('client_id', input.clientId, current?.clientId), MAX_CLIENT_ID);
  const scopes = checkScopes(input.scopes ?? current?.scopes ?? DEFAULT_SCOPES);
  const usernameClaim = checkClaimName('username_claim', input.usernameClaim ?? current?.usernameClaim ?? DEFAULT_USERNAME_CLAIM);
  const groupClaimRaw = input.groupClaim === undefined ? current?.groupClaim ?? null : input.groupClaim;
  const groupClaim = groupClaimRaw === null || groupClaimRaw.trim() === '' ? null : checkClaimName('group_claim', groupClaimRaw);
  const workspaceId = input.workspaceId ?? current?.workspaceId ?? 0;
  if (!(await workspaceExists(db, workspaceId))) throw errors.modelSaveError({ workspace_id: ['names no Workspace'] });
  const groupMappings = await checkGroupMappings(db, input.groupMappings ?? current?.groupMappings ?? [], workspaceId);
  if (groupMappings.length > 0 && groupClaim === null) throw invalid('group_claim', 'must name the claim that lists groups when groups are mapped');
  return {
    label, issuerUrl, clientId, scopes, usernameClaim, groupClaim, workspaceId, groupMappings,
    provisionUsers: input.provisionUsers ?? current?.provisionUsers ?? false,
    enabled: input.enabled ?? current?.enabled ?? true,
    displayOnLoginPage: input.displayOnLoginPage ?? current?.displayOnLoginPage ?? true,
  };
}

async function checkGroupMappings(db: Db, mappings: readonly GroupMapping[], workspaceId: number): Promise<GroupMapping[]> {
  if (mappings.length > MAX_MAPPINGS) throw invalid('group_mappings', `may have at most ${MAX_MAPPINGS} entries`);
  const seen = new Set<string>();
  const checked: GroupMapping[] = [];
  for (const mapping of mappings) {
    const claimValue = text('group_mappings', mapping.claimValue, MAX_CLAIM_VALUE);
    const group = await findGroupById(db, mapping.groupId);
    if (group === undefined) throw errors.modelSaveError({ group_mappings: [`names group ${mapping.groupId}, which does not exist`] });
    if (group.workspaceId !== workspaceId) throw errors.modelSaveError({ group_mappings: [`names group ${mapping.groupId}, which is not a group of the provider's Workspace`] });
    const key = JSON.stringify([claimValue, mapping.groupId]);
    if (seen.has(key)) continue;
    seen.add(key);
    checked.push({ claimValue, groupId: mapping.groupId });
  }
  return checked;
}

/** A new client secret as sent: undefined to keep the current one, null to have none. */
export function checkClientSecret(raw: string | null | undefined): string | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return null;
  if (raw.length > MAX_SECRET) throw invalid('client_secret', `is too long (maximum is ${MAX_SECRET} characters)`);
  if (CONTROL_CHARACTERS.test(raw)) throw invalid('client_secret', 'may not contain control characters');
  return raw;
}
