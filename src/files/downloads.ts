import type { Readable } from 'node:stream';
import type { Capability } from '../authz/index.js';
import type { SitePath } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { activity } from '../lib/activity.js';
import { findEntryById, type Entry } from '../repositories/entries.js';
import type { ByteRange } from '../storage/blob-storage.js';
import { resolveRange, type RangeRequest } from './byte-range.js';
import type { FileDeps } from './file-deps.js';
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

/** A readable file's bytes (or the part of them asked for), streamed. */
export async function readFile(scope: SessionScope, site: SitePath, rangeRequest: RangeRequest | undefined): Promise<ReadableFile & OpenedBytes> {
  const readable = await readableFile(scope, site);
  return { ...readable, ...(await openBytes(scope.deps, readable.entry, rangeRequest)) };
}

export function downloadLinkFor(deps: FileDeps, entry: Entry): Promise<TransferLink> {
  return deps.links.sign({ kind: 'download', entryId: entry.id }, entry.storageKey as string);
}

export interface OpenedBytes {
  stream: Readable;
  /** The part served, when a satisfiable single range was asked for. */
  range: ByteRange | undefined;
}

/** What a download through a signed link serves: the file's name, size, times and bytes. */
export interface OpenedDownload extends OpenedBytes {
  name: string;
  size: number;
  mtime: number;
  sha256: string | null;
}

/**
 * A signed download link's file version, streamed. The link carries its own authority (it was
 * issued to a caller with `read`), so no credential is asked.
 */
export async function openDownload(deps: FileDeps, token: string, rangeRequest: RangeRequest | undefined): Promise<OpenedDownload> {
  const parsed = deps.links.parse(token);
  if (parsed.target.kind !== 'download') throw errors.notFound();
  const entry = await findEntryById(deps.db, parsed.target.entryId);
  // Without the row there is no binding to check the signature against: the same plain not-found.
  if (entry === undefined || entry.type !== 'file' || entry.storageKey === null) throw errors.notFound();
  await deps.links.verify(parsed, entry.storageKey);
  const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
  return { name, size: entry.size ?? 0, mtime: entry.mtime, sha256: entry.sha256, ...(await openBytes(deps, entry, rangeRequest)) };
}

async function openBytes(deps: FileDeps, entry: Entry, rangeRequest: RangeRequest | undefined): Promise<OpenedBytes> {
  const range = resolveRange(rangeRequest, entry.size ?? 0);
  const stream = await deps.storage.read(entry.storageKey as string, range);
  // Counted when the last byte has been read, so an abandoned download does not count whole.
  const length = range === undefined ? entry.size ?? 0 : range.end - range.start + 1;
  stream.once('end', () => activity.emit('bytes-downloaded', length));
  return { stream, range };
}
