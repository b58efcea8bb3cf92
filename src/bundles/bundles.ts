import {
  assertMayShare, bundleCreator, bundleListScope, type Call, creatorOf, findVisibleBundle, framedSitePath, type SharedPath, type SitePath, workspaceFrame,
} from '../access/index.js';
import type { Db } from '../db/database.js';
import { lockAndRead } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { AtriumError } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { hashPassword, readSharingSettings, type SharingSettings } from '../identity/index.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import {
  type Bundle, type BundleFilter, type BundlePath, type BundleSettings, type BundleSortField, bundleIdWithCodeKey, DEFAULT_BUNDLE_SETTINGS, deleteBundleRow,
  findBundleById, findBundlePaths, insertBundle, listBundlesInScope, updateBundleRow,
} from '../repositories/bundles.js';
import { refusingDuplicates } from '../repositories/constraint-errors.js';
import { checkChosenCode, randomBundleCode } from './bundle-codes.js';
import { type BundleFieldsInput, checkBundleFields, checkBundleWhole, checkPassword } from './bundle-fields.js';
import { bundleCreated, bundleDeleted, bundleUpdated } from './bundle-history.js';
import { DAY_MS } from '../lib/time.js';

/** A link with the paths it shares (a listing leaves the paths out, as Files.com's does). */
export interface BundleView {
  bundle: Bundle;
  paths?: BundlePath[];
}

export interface BundleInput extends BundleFieldsInput {
  paths?: string[] | null;
  password?: string | null;
  code?: string | null;
  /** The user the link belongs to: the caller when absent or 0; another only by an administrator of the Workspace. */
  user_id?: number;
}

const MAX_PATHS = 1000;

/** GET /bundles: every link of the context to its administrators, the caller's own to anyone else. */
export async function listBundles(a: Call, filter: BundleFilter, page: SortedPageRequest<BundleSortField>): Promise<Bundle[]> {
  const { scope, creatorId } = await bundleListScope(a.db, a.caller, a.requestWorkspaceId);
  return listBundlesInScope(a.db, scope, creatorId, filter, page);
}

export async function getBundle(a: Call, id: number): Promise<BundleView> {
  const bundle = await findVisibleBundle(a.db, a.caller, a.requestWorkspaceId, id);
  return { bundle, paths: await findBundlePaths(a.db, bundle.id) };
}

/**
 * POST /bundles: a link of the request's Workspace, belonging to the caller (or, named by an
 * administrator, to another user), sharing paths its creator may share, under the site's rules.
 */
export async function createBundle(a: Call, input: BundleInput): Promise<BundleView> {
  const sharing = await readSharingSettings(a.db);
  if (!sharing.sharing_enabled) throw errors.sharingDisabled();
  const sent = checkBundleFields(input);
  if (input.paths === undefined || input.paths === null || input.paths.length === 0) throw errors.paramsRequired({ paths: ['name at least one file or folder to share'] });
  const named = namedPaths(a, input.paths);
  const workspaceId = a.requestWorkspaceId;
  const creator = await bundleCreator(a.db, a.caller, workspaceId, input.user_id);
  const settings: BundleSettings = { ...DEFAULT_BUNDLE_SETTINGS, ...sent };
  if (sent.require_registration === undefined && sharing.bundle_require_registration) settings.require_registration = true;
  if (sent.expires_at === undefined && sharing.bundle_expiration !== null) settings.expires_at = a.now + sharing.bundle_expiration * DAY_MS;
  checkSiteRules(settings, sent, sharing, a.now);
  checkBundleWhole(settings);
  const shared = await assertMayShare(a.db, creator, workspaceId, named, settings.permissions);
  const code = input.code === undefined || input.code === null || input.code === '' ? randomBundleCode() : await chosenCode(a.db, input.code, sharing);
  const password = checkPassword(input.password ?? null);
  if (password === null && sharing.bundle_password_required) throw passwordRequired();
  const passwordHash = password === null ? null : await hashPassword(password);
  const paths = storedPaths(shared);
  const id = await refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    const made = await insertBundle(tx, { workspaceId, userId: creator.id, code, settings, passwordHash, paths, now: a.now });
    const bundle = (await findBundleById(tx, made)) as Bundle;
    await recordHistory(tx, a, [bundleCreated(bundle, paths)]);
    return made;
  }), codeTaken);
  return viewOf(a.db, id);
}

/**
 * PATCH /bundles/<id>: what is sent changes, the rest stays. Its paths, its permissions or its
 * creator changing are checked again as a new link would be; a field sent back as it is (the
 * SDK's `save()` sends every field) changes nothing and asks nothing more, so a link whose code
 * was chosen can still be saved where codes may no longer be chosen. Nothing to change: no write,
 * no record.
 */
export async function updateBundle(a: Call, id: number, input: BundleInput): Promise<BundleView> {
  // The form of what is sent first: a malformed request is refused as such, whichever link it names.
  const sent = checkBundleFields(input);
  const password = input.password === undefined ? undefined : checkPassword(input.password);
  const found = await findVisibleBundle(a.db, a.caller, a.requestWorkspaceId, id);
  const sharing = await readSharingSettings(a.db);
  const currentPaths = await findBundlePaths(a.db, found.id);
  const changed = Object.fromEntries(Object.entries(sent)
    .filter(([field, value]) => found.settings[field as keyof BundleSettings] !== value)) as Partial<BundleSettings>;
  const settings: BundleSettings = { ...found.settings, ...changed };
  checkSiteRules(settings, changed, sharing, a.now);
  checkBundleWhole(settings);

  const newCreator = input.user_id !== undefined && input.user_id !== 0 && input.user_id !== found.userId;
  const creator = newCreator ? await bundleCreator(a.db, a.caller, found.workspaceId, input.user_id)
    : await creatorOf(a.db, found);
  const named = input.paths === undefined || input.paths === null ? undefined : namedPaths(a, input.paths);
  if (named !== undefined && named.length === 0) throw errors.paramsRequired({ paths: ['a link shares at least one file or folder'] });
  const pathsChange = named !== undefined && !samePaths(named.map((n) => n.site.key), currentPaths.map((p) => p.pathKey));
  let paths: BundlePath[] | undefined;
  // What the link hands out changes: its creator must hold what it takes, as for a new link.
  if (pathsChange || newCreator || changed.permissions !== undefined) {
    if (creator === undefined) throw errors.modelSaveError({ user_id: ['the link has no creator any more (deleted): hand it to a user with user_id, or delete it'] });
    const sites = named ?? currentPaths.map((p) => ({ site: { path: p.path, key: p.pathKey, workspaceId: found.workspaceId }, named: p.path }));
    const shared = storedPaths(await assertMayShare(a.db, creator, found.workspaceId, sites, settings.permissions));
    if (pathsChange) paths = shared;
  }
  const code = input.code === undefined || input.code === null || input.code === '' || input.code === found.code ? undefined : await chosenCode(a.db, input.code, sharing, found.id);
  if (password === null && found.passwordHash !== null && sharing.bundle_password_required) throw passwordRequired();
  const passwordHash = password === undefined ? undefined : password === null ? (found.passwordHash === null ? undefined : null) : await hashPassword(password);

  const nothing = Object.keys(changed).length === 0 && paths === undefined && code === undefined && !newCreator && passwordHash === undefined;
  if (!nothing) {
    await refusingDuplicates(() => inTransaction(a.db, async (tx) => {
      // Compared again with the link as it is now, other changes of it waiting: of identical
      // changes at once, the first is made and recorded, and the others find nothing left to change.
      const before = await lockedBundle(tx, found.id);
      const beforePaths = await findBundlePaths(tx, found.id);
      const still = Object.fromEntries(Object.entries(changed)
        .filter(([field, value]) => before.settings[field as keyof BundleSettings] !== value)) as Partial<BundleSettings>;
      const newPaths = paths !== undefined && !samePaths(paths.map((p) => p.pathKey), beforePaths.map((p) => p.pathKey)) ? paths : undefined;
      const newCode = code !== undefined && code !== before.code ? code : undefined;
      const handedTo = newCreator && creator !== undefined && creator.id !== before.userId ? creator.id : undefined;
      if (Object.keys(still).length === 0 && newPaths === undefined && newCode === undefined && handedTo === undefined && passwordHash === undefined) return;
      await updateBundleRow(tx, found.id, {
        settings: still, ...(newCode === undefined ? {} : { code: newCode }), ...(handedTo === undefined ? {} : { userId: handedTo }),
        ...(passwordHash === undefined ? {} : { passwordHash }), ...(newPaths === undefined ? {} : { paths: newPaths }),
      }, a.now);
      const after = (await findBundleById(tx, found.id)) as Bundle;
      await recordHistory(tx, a, [bundleUpdated({ bundle: before, paths: beforePaths }, { bundle: after, paths: newPaths ?? beforePaths })]);
    }), codeTaken);
  }
  return viewOf(a.db, found.id);
}

/** DELETE /bundles/<id>: the link ends at once, with its record of recipients and visitors; the deletion is recorded. */
export async function deleteBundle(a: Call, id: number): Promise<void> {
  const found = await findVisibleBundle(a.db, a.caller, a.requestWorkspaceId, id);
  await inTransaction(a.db, async (tx) => {
    const current = await lockedBundle(tx, found.id);
    const paths = await findBundlePaths(tx, found.id);
    await deleteBundleRow(tx, current.id);
    await recordHistory(tx, a, [bundleDeleted(current, paths)]);
  });
}

/**
 * The paths a request names, as site paths in the caller's frame, each once. A path outside what
 * the caller's credential reaches answers as one that does not exist.
 */
function namedPaths(a: Call, inputs: readonly string[]): { site: SitePath; named: string }[] {
  if (inputs.length > MAX_PATHS) throw errors.paramsInvalid({ paths: [`at most ${MAX_PATHS} paths`] });
  const frame = a.frame ?? workspaceFrame(a.requestWorkspaceId);
  const byKey = new Map<string, { site: SitePath; named: string }>();
  for (const named of inputs) {
    let site: SitePath;
    try {
      site = framedSitePath(a.caller, frame, named);
    } catch (error) {
      if (error instanceof AtriumError && error.type === 'not-found/file-not-found') throw errors.bundlePathNotFound(named);
      // Which of the paths, and that it is one of `paths`.
      if (error instanceof AtriumError && error.type === 'bad-request/invalid-path') throw errors.invalidPath(`paths: "${named.slice(0, 200)}": ${error.message}`);
      throw error;
    }
    if (!byKey.has(site.key)) byKey.set(site.key, { site, named });
  }
  return [...byKey.values()];
}

function samePaths(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

function storedPaths(shared: readonly SharedPath[]): BundlePath[] {
  return shared.map(({ path, pathKey, recursive }) => ({ path, pathKey, recursive }));
}

/**
 * The site's rules on what is set now (`sent`): with `bundle_expiration`, a link expires, and no
 * later than that many days from now; with `bundle_require_registration`, registration stays on.
 */
function checkSiteRules(settings: BundleSettings, sent: Partial<BundleSettings>, sharing: SharingSettings, now: number): void {
  const days = sharing.bundle_expiration;
  if (days !== null && 'expires_at' in sent) {
    if (settings.expires_at === null) throw errors.modelSaveError({ expires_at: [`is required on this site: links last at most ${days} days (the site setting bundle_expiration)`] });
    if (settings.expires_at > now + days * DAY_MS) throw errors.modelSaveError({ expires_at: [`may be at most ${days} days from now on this site (the site setting bundle_expiration)`] });
  }
  if (sharing.bundle_require_registration && sent.require_registration === false) {
    throw errors.modelSaveError({ require_registration: ['cannot be turned off on this site (the site setting bundle_require_registration)'] });
  }
}

/** A code the creator chose: allowed by the site, of the right form, and no other link's. */
async function chosenCode(db: Db, raw: string, sharing: SharingSettings, ownId?: number): Promise<string> {
  if (!sharing.allow_bundle_names) throw errors.bundleNamesNotAllowed();
  const code = checkChosenCode(raw);
  const holder = await bundleIdWithCodeKey(db, code.toLowerCase());
  if (holder !== undefined && holder !== ownId) throw codeTaken();
  return code;
}

const codeTaken = () => errors.modelSaveError({ code: ['has already been taken (by this or another share link, in any case)'] });
const passwordRequired = () => errors.modelSaveError({ password: ['is required on this site (the site setting bundle_password_required)'] });

async function viewOf(db: Db, id: number): Promise<BundleView> {
  const bundle = await findBundleById(db, id);
  if (bundle === undefined) throw errors.bundleNotFound();
  return { bundle, paths: await findBundlePaths(db, id) };
}

async function lockedBundle(tx: Db, id: number): Promise<Bundle> {
  const found = await lockAndRead(tx, 'bundles', id, findBundleById);
  if (found === undefined) throw errors.bundleNotFound();
  return found;
}
