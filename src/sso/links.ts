import { assertActsAtSiteLevel, type Call } from '../access/index.js';
import { takeTurn } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import type { ConfirmIdentity } from '../identity/index.js';
import { refusingBrokenReferences, refusingDuplicates } from '../repositories/constraint-errors.js';
import { deleteLink, findLink, findLinkBySubject, insertLink, listLinks, type SsoLink } from '../repositories/sso-links.js';
import { findSsoProvider, type SsoProvider } from '../repositories/sso-providers.js';
import { findUserById } from '../repositories/users.js';
import { linkEvent } from './sso-history.js';

const MAX_SUBJECT = 255;

async function providerOf(a: Call, providerId: number): Promise<SsoProvider> {
  assertActsAtSiteLevel(a.caller);
  const provider = await findSsoProvider(a.db, providerId);
  if (provider === undefined) throw errors.ssoProviderNotFound();
  return provider;
}

/** GET /sso_providers/<id>/links: which Atrium users which accounts at the provider are. */
export async function listProviderLinks(a: Call, providerId: number): Promise<SsoLink[]> {
  await providerOf(a, providerId);
  return listLinks(a.db, { providerId });
}

/**
 * POST /sso_providers/<id>/links: a Site Administrator says which Atrium user the account `subject`
 * (its `sub` claim) at the provider is. This is how an existing account comes to sign in with a
 * provider: a matching user name is never enough (docs/authentication.md). The account's subject
 * is in the History record of its refused first sign-in. The link is made at the provider's
 * issuer as it is now.
 */
export async function linkAccount(a: Call, providerId: number, input: { userId: number; subject: string }, confirmIdentity: ConfirmIdentity): Promise<SsoLink> {
  const provider = await providerOf(a, providerId);
  const subject = input.subject.trim();
  if (subject === '' || subject.length > MAX_SUBJECT) throw errors.paramsInvalid({ subject: [`must be the account's subject (its sub claim), 1 to ${MAX_SUBJECT} characters`] });
  const user = await findUserById(a.db, input.userId);
  if (user === undefined) throw errors.userNotFound();
  const taken = await findLinkBySubject(a.db, provider.issuerUrl, subject);
  if (taken !== undefined) throw subjectTaken(taken.username);
  await confirmIdentity('action');
  const id = await refusingDuplicates(() => refusingBrokenReferences(() => inTransaction(a.db, async (tx) => {
    await takeTurn(tx, `sso-provider:${provider.id}`);
    const inserted = await insertLink(tx, { providerId: provider.id, issuer: provider.issuerUrl, subject, userId: user.id, now: a.now });
    const link = (await findLink(tx, inserted)) as SsoLink;
    await recordHistory(tx, a, [linkEvent('sso_link_create', link, provider, user.workspaceId)]);
    return inserted;
  }), errors.userNotFound), () => errors.modelSaveError({ user_id: ['is already linked to an account at this provider: unlink it first'], subject: ['or is linked to another user'] }));
  return (await findLink(a.db, id)) as SsoLink;
}

/** DELETE /sso_providers/<id>/links/<link id>: the account no longer signs in as the user. */
export async function unlinkAccount(a: Call, providerId: number, linkId: number, confirmIdentity: ConfirmIdentity): Promise<void> {
  const provider = await providerOf(a, providerId);
  const link = await findLink(a.db, linkId);
  if (link === undefined || link.providerId !== provider.id) throw errors.ssoLinkNotFound();
  const user = await findUserById(a.db, link.userId);
  await confirmIdentity('action');
  await inTransaction(a.db, async (tx) => {
    await takeTurn(tx, `sso-provider:${provider.id}`);
    // Unlinked meanwhile by another request: that one's change, and its record.
    if ((await findLink(tx, linkId)) === undefined) throw errors.ssoLinkNotFound();
    await deleteLink(tx, linkId);
    await recordHistory(tx, a, [linkEvent('sso_link_destroy', link, provider, user?.workspaceId ?? 0)]);
  });
}

function subjectTaken(username: string): Error {
  return errors.modelSaveError({ subject: [`is already linked to user ${username}: unlink it first`] });
}
