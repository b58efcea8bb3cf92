import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { callerOfShareLink, creatorOf, shareLinkExtent, type ShareLinkPermissions } from '../access/index.js';
import type { Db } from '../db/database.js';
import { lockAndRead } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import type { FileOperations, FileSession } from '../files/index.js';
import { readSharingSettings } from '../identity/index.js';
import type { Origin } from '../lib/origin.js';
import { insertBundleAction, insertBundleRegistration } from '../repositories/bundle-activity.js';
import { findBundleById } from '../repositories/bundles.js';
import { type BundleVisit, countBundleVisits, findBundleRecipientIdByAddress, findBundleVisitByTokenHash, insertBundleVisit } from '../repositories/bundle-visits.js';
import { findBundleByCode, type FoundBundle } from './bundle-lookup.js';
import { assertPasswordAccepted } from './link-password.js';
import { sharedTops, type SharedTop } from './link-paths.js';

// A visit of a share link (docs/sharing.md#visiting-a-link): one browser that opened it, known by
// the random token of its cookie. A link with a password or registration is visited by giving
// them (startVisit); a link with neither is visited by its first listing, download or upload
// (enterLink makes the visit then). Each visit is one of the link's `max_uses`.

/** What the link's public answers need: the database, the time, and the file operations its visitors' sessions are opened on. */
export interface LinkDeps {
  db: Db;
  now: number;
  files: FileOperations;
}

/** The visitor's client: its address (History's `ip`, the rate limits' key). */
export interface LinkClient {
  ip: string;
}

/** A visit as the link's answers use it. */
export interface LinkVisitor {
  found: FoundBundle;
  visit: BundleVisit;
  /** The file session on the link's reach: every file operation of the visitor goes through it. */
  session: FileSession;
  tops: SharedTop[];
  /** The token of a visit made by this request, for the visitor's cookie. */
  newToken?: string;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A link that works now, else the one answer for every missing or closed link. */
export async function openLink(db: Db, code: string, now: number): Promise<FoundBundle> {
  const found = await findBundleByCode(db, code, now);
  if (found === undefined) throw errors.publicBundleNotFound((await readSharingSettings(db)).bundle_not_found_message);
  if (found.closed !== null) throw errors.publicBundleNotFound(found.notFoundMessage);
  return found;
}

/** Whether a link asks its visitors for something before they see its files. */
export function needsVisit(found: FoundBundle): boolean {
  return found.bundle.passwordHash !== null || found.bundle.settings.require_registration;
}

/**
 * The visit a cookie's token names, if it is a visit of this link: found by the unique index on
 * the token's SHA-256, whose stored value is then compared in constant time.
 */
export async function visitOf(db: Db, found: FoundBundle, token: string | undefined): Promise<BundleVisit | undefined> {
  if (token === undefined || token === '' || token.length > 200) return undefined;
  const hash = hashOf(token);
  const visit = await findBundleVisitByTokenHash(db, hash);
  if (visit === undefined || visit.bundleId !== found.bundle.id) return undefined;
  return timingSafeEqual(Buffer.from(visit.tokenHash, 'hex'), Buffer.from(hash, 'hex')) ? visit : undefined;
}

/** Whether a link's uses are spent (`max_uses`): a new visit is then refused as a missing link. */
async function usedUp(db: Db, found: FoundBundle): Promise<boolean> {
  const max = found.bundle.settings.max_uses;
  return max !== null && (await countBundleVisits(db, found.bundle.id)) >= max;
}

/** GET /api/public/bundles/<code>: a used-up link is missing to anyone but a visitor who already used it. */
export async function linkForVisitor(db: Db, code: string, token: string | undefined, now: number): Promise<{ found: FoundBundle; unlocked: boolean }> {
  const found = await openLink(db, code, now);
  const visit = await visitOf(db, found, token);
  if (visit === undefined && (await usedUp(db, found))) throw errors.publicBundleNotFound(found.notFoundMessage);
  return { found, unlocked: visit !== undefined || !needsVisit(found) };
}

export interface VisitInput {
  password?: string | undefined;
  name?: string | undefined;
  email?: string | undefined;
  company?: string | undefined;
}

const MAX_FIELD = 1024;

/**
 * POST /api/public/bundles/<code>/visits: the password if the link has one (wrong ones limited
 * and recorded, link-password.ts), the registration if it asks for one, then a new visit, one
 * more of the link's uses. Answers the visit's token, for the visitor's cookie.
 */
export async function startVisit(deps: LinkDeps, code: string, input: VisitInput, client: LinkClient): Promise<{ token: string; visit: BundleVisit }> {
  const found = await openLink(deps.db, code, deps.now);
  await assertPasswordAccepted(deps.db, found, input.password, client.ip, deps.now);
  const registration = found.bundle.settings.require_registration ? registrationFields(found, input) : undefined;
  return makeVisit(deps, found, client, registration);
}

type RegistrationFields = { name: string | null; email: string | null; company: string | null };

/** The registration's fields, each required unless the link skips it (`skip_name`, `skip_email`, `skip_company`). */
function registrationFields(found: FoundBundle, input: VisitInput): RegistrationFields {
  const { skip_name: skipName, skip_email: skipEmail, skip_company: skipCompany } = found.bundle.settings;
  const field = (name: 'name' | 'email' | 'company', skipped: boolean): string | null => {
    const value = typeof input[name] === 'string' ? (input[name] as string).trim() : '';
    if (value.length > MAX_FIELD) throw errors.paramsInvalid({ [name]: [`is at most ${MAX_FIELD} characters`] });
    if (value === '') {
      if (skipped) return null;
      throw errors.paramsInvalid({ [name]: ['is required: this link asks its visitors to register'] });
    }
    return value;
  };
  const fields = { name: field('name', skipName), email: field('email', skipEmail), company: field('company', skipCompany) };
  if (fields.email !== null && !/^[^\s@]+@[^\s@]+$/.test(fields.email)) throw errors.paramsInvalid({ email: ['is not an email address'] });
  return fields;
}

/** A new visit, with its registration, unless the link's uses are spent (counted under the link's row lock, so two visits at once never pass max_uses). */
async function makeVisit(deps: LinkDeps, found: FoundBundle, client: LinkClient, registration: RegistrationFields | undefined): Promise<{ token: string; visit: BundleVisit }> {
  const token = randomBytes(32).toString('base64url');
  const { bundle } = found;
  const visit = await inTransaction(deps.db, async (tx) => {
    if ((await lockAndRead(tx, 'bundles', bundle.id, findBundleById)) === undefined || (await usedUp(tx, found))) {
      throw errors.publicBundleNotFound(found.notFoundMessage);
    }
    let registrationId: number | null = null;
    if (registration !== undefined) {
      const recipient = registration.email === null ? null : await findBundleRecipientIdByAddress(tx, bundle.id, registration.email);
      const made = await insertBundleRegistration(tx, {
        bundleId: bundle.id, workspaceId: bundle.workspaceId, bundleRecipientId: recipient, code: randomBytes(16).toString('base64url'), ...registration,
        ip: client.ip, now: deps.now,
      });
      registrationId = made.id;
      await insertBundleAction(tx, { bundleId: bundle.id, workspaceId: bundle.workspaceId, bundleRegistrationId: registrationId, action: 'registration', path: null, now: deps.now });
    }
    return insertBundleVisit(tx, { bundleId: bundle.id, tokenHash: hashOf(token), bundleRegistrationId: registrationId, ip: client.ip, now: deps.now });
  });
  return { token, visit };
}

/**
 * The visitor of a link for its files: the visit its cookie names, else, for a link that asks
 * nothing, a new visit (`not-authenticated/bundle-visit-required` for one that asks), and the file
 * session on the link's reach. The session acts as the link's creator as that user is now, through
 * the link's paths and permissions only (access/share-link-reach.ts): what the creator may no
 * longer do, the link no longer does.
 */
export async function enterLink(deps: LinkDeps, code: string, token: string | undefined, client: LinkClient): Promise<LinkVisitor> {
  const found = await openLink(deps.db, code, deps.now);
  let visit = await visitOf(deps.db, found, token);
  let newToken: string | undefined;
  if (visit === undefined) {
    if (needsVisit(found)) throw errors.bundleVisitRequired();
    ({ token: newToken, visit } = await makeVisit(deps, found, client, undefined));
  }
  const session = await linkSession(deps, found, visit, client);
  return { found, visit, session, tops: sharedTops(session, found.paths), ...(newToken === undefined ? {} : { newToken }) };
}

async function linkSession(deps: LinkDeps, found: FoundBundle, visit: BundleVisit, client: LinkClient): Promise<FileSession> {
  const { bundle, paths } = found;
  const creator = await creatorOf(deps.db, bundle);
  // openLink found the creator a moment ago; one deleted since ends the link as any closed link.
  if (creator === undefined) throw errors.publicBundleNotFound(found.notFoundMessage);
  const extent = shareLinkExtent(bundle.settings.permissions as ShareLinkPermissions, paths.map(({ pathKey, recursive }) => ({ pathKey, recursive })));
  const origin: Origin = { interface: 'web', ip: client.ip, bundle: { id: bundle.id, code: bundle.code, registrationId: visit.bundleRegistrationId } };
  return deps.files.session(callerOfShareLink(creator, { bundleId: bundle.id, workspaceId: bundle.workspaceId, extent }), bundle.workspaceId, origin);
}
