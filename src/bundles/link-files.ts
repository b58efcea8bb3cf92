import type { Readable } from 'node:stream';
import { AtriumError } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import { type ByteRange, DEFAULT_LISTING_SORT, type Disposition, type FileEntry, isPreviewable, type RangeRequest, readableInListing } from '../files/index.js';
import { insertBundleAction, insertBundleDownload } from '../repositories/bundle-activity.js';
import { findRegistrationFields, settleUploadFolder } from '../repositories/bundle-visits.js';
import { entryTypeAt } from '../repositories/entries.js';
import { type LinkPlace, placeOf, relativePathOf, type SharedTop, workspacePathOf } from './link-paths.js';
import { submissionFolderName } from './link-submissions.js';
import type { LinkClient, LinkDeps, LinkVisitor } from './link-visits.js';

export type { Disposition };

// What a share link's visitors do with its files (docs/sharing.md#visiting-a-link): list, preview,
// download, upload and delete, each through the link's file session (link-visits.ts), which alone
// decides whether the visitor may; what they did is recorded beside the link.

/** A folder or file as the link's page shows it. */
export interface LinkEntry {
  /** Relative to the link. */
  path: string;
  name: string;
  type: 'file' | 'directory';
  size: number | null;
  modifiedAt: number;
  mimeType: string | null;
  previewable: boolean;
}

/** A folder's entries the page shows at most: a link's page is not a sync client. */
export const MAX_LINK_ENTRIES = 10_000;
const PAGE = 1000;

function linkEntryOf(entry: FileEntry, path: string, name: string): LinkEntry {
  return { path, name, type: entry.type, size: entry.size, modifiedAt: entry.modifiedAt, mimeType: entry.mimeType, previewable: entry.type === 'file' && isPreviewable(entry.mimeType) };
}

/** The entries at a path of the link, folders first, then by name; at its top, the shared paths the visitor still reaches. */
export async function linkEntries(visitor: LinkVisitor, relative: string): Promise<LinkEntry[]> {
  const place = placeOf(visitor.tops, relative);
  const entries = place === undefined ? await topEntries(visitor) : await folderEntries(visitor, place);
  return entries.sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === 'directory' ? -1 : 1));
}

/** The shared paths the session shows: one its creator can no longer reach is not there. */
async function topEntries(visitor: LinkVisitor): Promise<LinkEntry[]> {
  const shown: LinkEntry[] = [];
  for (const top of visitor.tops) {
    const entry = await reached(visitor.session.stat(top.path));
    if (entry !== undefined) shown.push(linkEntryOf(entry, top.name, top.name));
  }
  return shown;
}

async function folderEntries(visitor: LinkVisitor, place: LinkPlace): Promise<LinkEntry[]> {
  const relative = relativePathOf(place);
  const path = workspacePathOf(place);
  const itself = visitor.session.locate(path).key;
  const listed: LinkEntry[] = [];
  let after;
  do {
    const page = await visitor.session.list(path, { sort: DEFAULT_LISTING_SORT, after, limit: PAGE });
    for (const entry of page.entries.filter(shownToVisitor)) {
      // A file lists as itself: its path is the one asked for, not a name below it.
      const entryPath = visitor.session.locate(entry.path).key === itself ? relative : `${relative}/${entry.name}`;
      listed.push(linkEntryOf(entry, entryPath, entry.name));
    }
    after = page.next;
  } while (after !== undefined && listed.length < MAX_LINK_ENTRIES);
  return listed.slice(0, MAX_LINK_ENTRIES);
}

/**
 * Whether a visitor's listing shows an entry the session listed: a folder the visitor may list, a
 * file it may read, as a ZIP takes them (files/zip-archive.ts). A link that only takes uploads
 * (`write`) lists nothing below its shared folders, though the session shows a writer the
 * folders it could drop files into: those are other visitors' submission folders, named after
 * them, and no visitor is shown another's submission.
 */
export const shownToVisitor: (entry: FileEntry) => boolean = readableInListing;

/** The entry, or undefined when the session does not show it (gone, or beyond the visitor's reach). */
async function reached(stat: Promise<FileEntry>): Promise<FileEntry | undefined> {
  try {
    return await stat;
  } catch (error) {
    if (error instanceof AtriumError && (error.family === 'not-found' || error.family === 'not-authorized')) return undefined;
    throw error;
  }
}

export interface LinkFileBytes {
  entry: FileEntry;
  stream: Readable;
  range: ByteRange | undefined;
  /** How it is served: shown in the page only when its type is safe to show. */
  disposition: Disposition;
  contentType: string;
}

/**
 * A file's bytes (or the range asked for). `inline` serves a previewable type as itself; any other
 * file is served as an opaque attachment. A `preview_only` link serves previews only:
 * `processing-failure/bundle-only-allows-previews` for anything else. A download is recorded as
 * the link's BundleDownload (`file`), a preview as its BundleAction (`read`), once per request
 * that starts at the file's first byte (a player's further ranges are the same viewing).
 */
export async function readLinkFile(deps: LinkDeps, visitor: LinkVisitor, relative: string, range: RangeRequest | undefined, asked: Disposition, headersOnly = false): Promise<LinkFileBytes> {
  const previewOnly = visitor.found.bundle.settings.permissions === 'preview_only';
  if (previewOnly && asked === 'attachment') throw errors.bundleOnlyAllowsPreviews();
  const place = placeOf(visitor.tops, relative);
  if (place === undefined) throw errors.cannotDownloadDirectory();
  const path = workspacePathOf(place);
  const opened = await visitor.session.read(path, range, { headersOnly });
  const inline = asked === 'inline' && isPreviewable(opened.entry.mimeType);
  if (previewOnly && !inline) {
    opened.stream.destroy();
    throw errors.bundleOnlyAllowsPreviews();
  }
  if (!headersOnly && (opened.range === undefined || opened.range.start === 0)) {
    const { bundle } = visitor.found;
    const record = { bundleId: bundle.id, workspaceId: bundle.workspaceId, bundleRegistrationId: visitor.visit.bundleRegistrationId, path: visitor.session.locate(path).path, now: deps.now };
    if (inline) await insertBundleAction(deps.db, { ...record, action: 'read' });
    else await insertBundleDownload(deps.db, { ...record, downloadMethod: 'file' });
  }
  return {
    entry: opened.entry, stream: opened.stream, range: opened.range, disposition: inline ? 'inline' : 'attachment',
    contentType: inline ? (opened.entry.mimeType as string) : 'application/octet-stream',
  };
}

/** An upload as stored: its path relative to the link. */
export interface LinkUpload {
  path: string;
  name: string;
  size: number;
}

const MAX_RENAMES = 1000;

/**
 * PUT: a file into one of the link's folders (`<shared folder>/[folders/]<name>`), through the
 * session's whole-file write (ATRIUM_MAX_UPLOAD_BYTES holds). Unless the link says otherwise the
 * visit's files go into its own submission folder right below the shared folder, named once per
 * visit (link-submissions.ts). A taken name gets " (1)", " (2)"... before its extension, unless
 * the link is `full` (then the upload replaces it). With `dont_allow_folders_in_uploads` no folder
 * is made but the submission folder: a path with folders is refused in a submission folder, and
 * must name folders that exist otherwise.
 */
export async function uploadToLink(deps: LinkDeps, visitor: LinkVisitor, relative: string, body: Readable, declaredLength: number | undefined, client: LinkClient): Promise<LinkUpload> {
  const place = placeOf(visitor.tops, relative);
  if (place === undefined || place.below.length === 0) {
    throw errors.invalidPath('An upload names a file inside one of the link\'s folders: <folder>/<file name>.');
  }
  const { bundle } = visitor.found;
  const settings = bundle.settings;
  const separate = !settings.dont_separate_submissions_by_folder;
  const folders = place.below.slice(0, -1);
  if (settings.dont_allow_folders_in_uploads && separate && folders.length > 0) {
    throw errors.paramsInvalid({ path: ['this link takes files, not folders: upload each file on its own'] });
  }
  let below = place.below;
  if (separate) below = [await submissionFolder(deps, visitor, place.top, client), ...below];
  if (settings.permissions !== 'full') below = [...below.slice(0, -1), await freeName(deps, visitor, { top: place.top, below })];
  const stored: LinkPlace = { top: place.top, below };
  const path = workspacePathOf(stored);
  const { entry, replaced } = await visitor.session.write(path, body, { mkdirParents: !settings.dont_allow_folders_in_uploads, declaredLength });
  await insertBundleAction(deps.db, {
    bundleId: bundle.id, workspaceId: bundle.workspaceId, bundleRegistrationId: visitor.visit.bundleRegistrationId, action: replaced ? 'update' : 'create',
    path: visitor.session.locate(path).path, now: deps.now,
  });
  return { path: relativePathOf(stored), name: entry.name, size: entry.size ?? 0 };
}

/** `name`, or `name (n).ext` with the first n that no entry takes. */
async function freeName(deps: LinkDeps, visitor: LinkVisitor, place: LinkPlace): Promise<string> {
  const name = place.below.at(-1) as string;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 0; n <= MAX_RENAMES; n += 1) {
    const candidate = n === 0 ? name : `${stem} (${n})${extension}`;
    const path = workspacePathOf({ top: place.top, below: [...place.below.slice(0, -1), candidate] });
    if ((await entryTypeAt(deps.db, visitor.session.locate(path).key)) === undefined) return candidate;
  }
  throw errors.destinationExists();
}

/** The visit's submission folder below `top`: named at its first upload, made where it is missing. */
async function submissionFolder(deps: LinkDeps, visitor: LinkVisitor, top: SharedTop, client: LinkClient): Promise<string> {
  let name = visitor.visit.uploadFolder;
  if (name === null) {
    const registration = visitor.visit.bundleRegistrationId === null ? undefined : await findRegistrationFields(deps.db, visitor.visit.bundleRegistrationId);
    const wanted = submissionFolderName(visitor.found.bundle, { name: null, email: null, company: null, ...registration, ip: client.ip }, deps.now);
    name = await settleUploadFolder(deps.db, visitor.visit.id, await freeName(deps, visitor, { top, below: [wanted] }));
  }
  const path = workspacePathOf({ top, below: [name] });
  if ((await entryTypeAt(deps.db, visitor.session.locate(path).key)) === undefined) {
    try {
      await visitor.session.createFolder(path, { mkdirParents: false });
      const { bundle } = visitor.found;
      await insertBundleAction(deps.db, {
        bundleId: bundle.id, workspaceId: bundle.workspaceId, bundleRegistrationId: visitor.visit.bundleRegistrationId, action: 'create',
        path: visitor.session.locate(path).path, now: deps.now,
      });
    } catch (error) {
      // Another upload of the same visit made it a moment ago.
      if (!(error instanceof AtriumError && error.type === 'processing-failure/destination-exists')) throw error;
    }
  }
  return name;
}

/** DELETE: a file or folder of the link, for a `full` link's visitors (the session refuses anyone else). */
export async function deleteFromLink(deps: LinkDeps, visitor: LinkVisitor, relative: string): Promise<void> {
  const place = placeOf(visitor.tops, relative);
  if (place === undefined) throw errors.invalidPath('Name a file or folder inside the link to delete.');
  const path = workspacePathOf(place);
  await visitor.session.delete(path, { recursive: true });
  const { bundle } = visitor.found;
  await insertBundleAction(deps.db, {
    bundleId: bundle.id, workspaceId: bundle.workspaceId, bundleRegistrationId: visitor.visit.bundleRegistrationId, action: 'destroy',
    path: visitor.session.locate(path).path, now: deps.now,
  });
}
