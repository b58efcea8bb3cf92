import { assertActsAtSiteLevel, type Call } from '../access/index.js';
import { takeTurn } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import type { ConfirmIdentity, SecretBox } from '../identity/index.js';
import { refusingDuplicates } from '../repositories/constraint-errors.js';
import {
  deleteSsoProvider, findSsoProvider, insertSsoProvider, issuerTaken, listSsoProviders, replaceGroupMappings, setSsoProviderSecret, type SsoProvider,
  ssoUserCounts, updateSsoProvider,
} from '../repositories/sso-providers.js';
import { checkClientSecret, checkProviderSettings, type SsoProviderInput } from './provider-fields.js';
import { providerCreated, providerDeleted, providerUpdated } from './sso-history.js';

/** A provider as a Site Administrator is shown it: never its secret, only whether it has one. */
export interface SsoProviderView {
  provider: SsoProvider;
  /** Users who sign in with it alone (`authentication_method` `sso` with it). */
  userCount: number;
}

/** The context a client secret is sealed under: a secret copied to another provider's row does not open there. */
export function secretContext(providerId: number): string {
  return `sso:${providerId}`;
}

async function views(a: Call, providers: readonly SsoProvider[]): Promise<SsoProviderView[]> {
  const counts = await ssoUserCounts(a.db);
  return providers.map((provider) => ({ provider, userCount: counts.get(provider.id) ?? 0 }));
}

/** GET /sso_providers (and the SDK's /sso_strategies): Site Administrators at the site level. */
export async function listProviders(a: Call): Promise<SsoProviderView[]> {
  assertActsAtSiteLevel(a.caller);
  return views(a, await listSsoProviders(a.db));
}

export async function getProvider(a: Call, id: number): Promise<SsoProviderView> {
  assertActsAtSiteLevel(a.caller);
  const provider = await findSsoProvider(a.db, id);
  if (provider === undefined) throw errors.ssoProviderNotFound();
  return (await views(a, [provider]))[0] as SsoProviderView;
}

function issuerTakenError(): Error {
  return errors.modelSaveError({ issuer_url: ['is already the issuer of another provider: an issuer is configured once'] });
}

/** POST /sso_providers: the secret is sealed under the data directory's key, bound to the new provider's id. */
export async function createProvider(a: Call, input: SsoProviderInput, secretBox: SecretBox, confirmIdentity: ConfirmIdentity): Promise<SsoProviderView> {
  assertActsAtSiteLevel(a.caller);
  const settings = await checkProviderSettings(a.db, input, undefined);
  const secret = checkClientSecret(input.clientSecret) ?? null;
  if (await issuerTaken(a.db, settings.issuerUrl)) throw issuerTakenError();
  await confirmIdentity('action');
  const id = await refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    const created = await insertSsoProvider(tx, settings, a.now);
    await replaceGroupMappings(tx, created, settings.groupMappings);
    if (secret !== null) await setSsoProviderSecret(tx, created, secretBox.seal(secret, secretContext(created)));
    await recordHistory(tx, a, [providerCreated((await findSsoProvider(tx, created)) as SsoProvider)]);
    return created;
  }), issuerTakenError);
  return getProvider(a, id);
}

/** PATCH /sso_providers/<id>: what is sent changes; a secret not sent stays, `null` or `""` removes it. */
export async function updateProvider(a: Call, id: number, input: SsoProviderInput, secretBox: SecretBox, confirmIdentity: ConfirmIdentity): Promise<SsoProviderView> {
  assertActsAtSiteLevel(a.caller);
  const current = await findSsoProvider(a.db, id);
  if (current === undefined) throw errors.ssoProviderNotFound();
  const settings = await checkProviderSettings(a.db, input, current);
  const secret = checkClientSecret(input.clientSecret);
  if (await issuerTaken(a.db, settings.issuerUrl, id)) throw issuerTakenError();
  await confirmIdentity('action');
  await refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    await takeTurn(tx, `sso-provider:${id}`);
    const before = await findSsoProvider(tx, id);
    if (before === undefined) throw errors.ssoProviderNotFound();
    await updateSsoProvider(tx, id, settings, a.now);
    await replaceGroupMappings(tx, id, settings.groupMappings);
    if (secret !== undefined) await setSsoProviderSecret(tx, id, secret === null ? null : secretBox.seal(secret, secretContext(id)));
    const after = (await findSsoProvider(tx, id)) as SsoProvider;
    const secretChanged = secret !== undefined && !(secret === null && before.clientSecretSealed === null);
    const event = providerUpdated(before, after, secretChanged);
    if ((event.targets?.['changed'] as string[]).length > 0) await recordHistory(tx, a, [event]);
  }), issuerTakenError);
  return getProvider(a, id);
}

/**
 * DELETE /sso_providers/<id>: its links and mapping go with it. Refused while users sign in with
 * it alone: they would have no way in. Move them to another provider or to a password first, or
 * disable the provider (`enabled: false`) to stop its sign-ins and keep its configuration.
 */
export async function deleteProvider(a: Call, id: number, confirmIdentity: ConfirmIdentity): Promise<void> {
  const { provider, userCount } = await getProvider(a, id);
  if (userCount > 0) throw stillUsed(userCount);
  await confirmIdentity('action');
  await inTransaction(a.db, async (tx) => {
    await takeTurn(tx, `sso-provider:${id}`);
    // Deleted meanwhile by another request: that one's deletion, and its record.
    if ((await findSsoProvider(tx, id)) === undefined) throw errors.ssoProviderNotFound();
    const counted = (await ssoUserCounts(tx)).get(id) ?? 0;
    if (counted > 0) throw stillUsed(counted);
    await deleteSsoProvider(tx, id);
    await recordHistory(tx, a, [providerDeleted(provider)]);
  });
}

function stillUsed(count: number): Error {
  return errors.modelSaveError({ id: [`${count} user(s) sign in with this provider alone: give them another way in first (authentication_method), or set enabled to false`] });
}
