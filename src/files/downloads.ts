import type { Readable } from 'node:stream';
import type { Capability } from '../authz/index.js';
import type { SitePath } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { activity } from '../lib/activity.js';
import { actorOf, type Recording } from '../history/index.js';
import { findEntryById, type Entry } from '../repositories/entries.js';
import { usernamesOf } from '../repositories/grants/index.js';
import { contentTypeOf } from '../lib/media-types.js';
import type { ByteRange } from '../storage/blob-storage.js';
import { resolveRange, type RangeRequest } from './byte-range.js';
import type { FileDeps } from './file-deps.js';
import { isPreviewable } from './previewable-types.js';
import { fileRead, recordFileEventsAlone, sessionRecording } from './file-history.js';
import { visibleEntry } from './file-lookup.js';
import type { SessionScope } from './session-scope.js';

/** A signed, short-lived link that reaches one upload part or one version of one file. */
export interface TransferLink {
  token: string;
  expiresAt: number;
}

export interface ReadableFile {
  entry: Entry;
  capabilities: Capability[];
}

/**
 * A visible file the caller may `read` (File.download). A folder is
 * `bad-request/cannot-download-directory`; a visible file without `read` is
 * `not-authorized/read-permission-required`.
 */
export async function readableFile(scope: SessionScope, site: SitePath): Promise<ReadableFile> {
  const { entry, access } = await visibleEntry(scope, site);
  if (entry.type === 'directory') throw errors.cannotDownloadDirectory();
  const capabilities = access.capabilities(entry.pathKey, 'file');
  if (!capabilities.has('read')) throw errors.readPermissionRequired();
  return { entry, capabilities: [...capabilities] };
}

/**
 * When a download is recorded in History (`read`). An audit log should show one record per actual
 * download, with the downloader's user, address and front door. So a read is recorded when bytes
 * are served, not when a link is issued (GET /files and File.find issue links that may never be
 * fetched), and only for a request that starts at the first byte: a whole file, or the first part
 * of a ranged or resumed download. Later parts and resumptions of the same download record nothing,
 * nor does a request that only asks for the headers. A link carries its holder (the caller who was
 * issued it, and through which door); the address is that of whoever fetches the bytes.
 */
export interface ReadOptions {
  /** The request wants no bytes (an HTTP HEAD): nothing is downloaded, so nothing is recorded. */
  headersOnly?: boolean;
}

function isDownload(range: ByteRange | undefined, options: ReadOptions): boolean {
  return options.headersOnly !== true && (range === undefined || range.start === 0);
}

/** A readable file's bytes (or the part of them asked for), streamed, the download recorded in History. */
export async function readFile(scope: SessionScope, site: SitePath, rangeRequest: RangeRequest | undefined, options: ReadOptions = {}): Promise<ReadableFile & OpenedBytes> {
  const readable = await readableFile(scope, site);
  const opened = await openBytes(scope.deps, readable.entry, rangeRequest);
  if (isDownload(opened.range, options)) await recordRead(scope.deps, readable.entry, opened, (now) => sessionRecording(scope, now));
  return { ...readable, ...opened };
}

/** A link to a file's current version, carrying the session's caller and front door for the record of its download. */
export function downloadLinkFor(scope: SessionScope, entry: Entry): Promise<TransferLink> {
  const { userId, apiKeyId } = actorOf(scope);
  return scope.deps.links.sign({ kind: 'download', entryId: entry.id, holder: { userId, apiKeyId, interface: scope.origin.interface } }, entry.storageKey as string);
}

export interface OpenedBytes {
  stream: Readable;
  /** The part served, when a satisfiable single range was asked for. */
  range: ByteRange | undefined;
}

/** How a file is served: shown in the browser (`inline`), or saved. */
export type Disposition = 'inline' | 'attachment';

/** What a download through a signed link serves: the file's name, size, times and bytes, and how. */
export interface OpenedDownload extends OpenedBytes {
  name: string;
  size: number;
  mtime: number;
  sha256: string | null;
  /** `inline` only when it was asked for and the file's type is safe to show (previewable-types.ts). */
  disposition: Disposition;
  /** The file's own media type when shown; `application/octet-stream` when saved. */
  contentType: string;
}

/**
 * A signed download link's file version, streamed. The link carries its own authority (it was
 * issued to a caller with `read`), so no credential is asked. `asked` is how the client wants it
 * served: a preview (`inline`) is the same download, recorded alike, of a previewable type served
 * as itself; any other file is served as an opaque attachment whatever was asked.
 */
export async function openDownload(deps: FileDeps, token: string, rangeRequest: RangeRequest | undefined, options: ReadOptions & { ip: string | null; asked?: Disposition }): Promise<OpenedDownload> {
  const parsed = deps.links.parse(token);
  if (parsed.target.kind !== 'download') throw errors.notFound();
  const { holder } = parsed.target;
  const entry = await findEntryById(deps.db, parsed.target.entryId);
  // Without the row there is no binding to check the signature against: the same plain not-found.
  if (entry === undefined || entry.type !== 'file' || entry.storageKey === null) throw errors.notFound();
  await deps.links.verify(parsed, entry.storageKey);
  const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
  const opened = await openBytes(deps, entry, rangeRequest);
  if (isDownload(opened.range, options)) {
    // The holder's name as it is now: a link lives minutes, and only its user's id is signed. Read
    // through the cached name lookup every download would otherwise query.
    const username = holder.userId === null ? undefined : (await usernamesOf(deps.db, new Set([holder.userId]))).get(holder.userId);
    await recordRead(deps, entry, opened, (now) => ({
      now,
      origin: { interface: holder.interface, ip: options.ip },
      actor: { userId: holder.userId, username: username ?? null, apiKeyId: holder.apiKeyId },
    }));
  }
  const mimeType = contentTypeOf(name);
  const inline = options.asked === 'inline' && isPreviewable(mimeType);
  return {
    name, size: entry.size ?? 0, mtime: entry.mtime, sha256: entry.sha256, ...opened,
    disposition: inline ? 'inline' : 'attachment', contentType: inline ? mimeType : 'application/octet-stream',
  };
}

/** Records a download of a file by the session's caller (a reader that serves its first byte: file-reader.ts). */
export async function recordDownload(scope: SessionScope, entry: Entry): Promise<void> {
  const now = scope.deps.clock.now();
  await recordFileEventsAlone(scope.deps, sessionRecording(scope, now), [fileRead(entry)]);
}

/**
 * Records the download of opened bytes before they are sent; if the record cannot be written, the
 * bytes are not sent either (no download without its record).
 */
async function recordRead(deps: FileDeps, entry: Entry, opened: OpenedBytes, recording: (now: number) => Recording): Promise<void> {
  try {
    const now = deps.clock.now();
    await recordFileEventsAlone(deps, recording(now), [fileRead(entry)]);
  } catch (error) {
    opened.stream.destroy();
    throw error;
  }
}

async function openBytes(deps: FileDeps, entry: Entry, rangeRequest: RangeRequest | undefined): Promise<OpenedBytes> {
  const range = resolveRange(rangeRequest, entry.size ?? 0);
  const stream = await deps.storage.read(entry.storageKey as string, range);
  // Counted when the last byte has been read, so an abandoned download does not count whole.
  const length = range === undefined ? entry.size ?? 0 : range.end - range.start + 1;
  stream.once('end', () => activity.emit('bytes-downloaded', length));
  return { stream, range };
}
