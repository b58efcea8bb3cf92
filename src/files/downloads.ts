import type { Readable } from 'node:stream';
import type { Capability } from '../authz/index.js';
import { errors } from '../errors/catalogue.js';
import { findEntryById, type Entry } from '../repositories/entries.js';
import type { ByteRange } from '../storage/blob-storage.js';
import type { SitePath } from '../access/index.js';
import type { FileActor } from './file-actor.js';
import type { FileCore } from './file-core.js';
import { visibleEntry } from './file-lookup.js';
import type { ParsedTransferToken } from './transfer-signing.js';

/**
 * GET /files/<path> (File.download): a visible file the actor may `read`, and a signed link to its
 * bytes. A folder is `bad-request/cannot-download-directory`; a visible file without `read` is
 * `not-authorized/read-permission-required`.
 */
export async function prepareDownload(ctx: FileCore, actor: FileActor, site: SitePath): Promise<PreparedDownload> {
  const { entry, access } = await visibleEntry(ctx.db, actor, site);
  if (entry.type === 'directory') throw errors.cannotDownloadDirectory();
  const capabilities = access.capabilities(entry.pathKey, 'file');
  if (!capabilities.has('read')) throw errors.readPermissionRequired();
  return { entry, capabilities: [...capabilities], link: await downloadLinkFor(ctx, entry) };
}

export interface PreparedDownload {
  entry: Entry;
  capabilities: Capability[];
  link: { token: string; expiresAt: number };
}

export async function downloadLinkFor(ctx: FileCore, entry: Entry): Promise<{ token: string; expiresAt: number }> {
  return ctx.links.sign({ kind: 'download', entryId: entry.id }, entry.storageKey as string);
}

export interface OpenedDownload {
  entry: Entry;
  stream: Readable;
  /** The part served, when a satisfiable single range was asked for. */
  range: ByteRange | undefined;
}

/**
 * GET on a signed download URL: the file version the link was made for, streamed. The link
 * carries its own authority (it was issued to a caller with `read`), so no credential is asked.
 */
export async function openDownload(ctx: FileCore, parsed: ParsedTransferToken, rangeHeader: string | undefined): Promise<OpenedDownload> {
  if (parsed.target.kind !== 'download') throw errors.notFound();
  const entry = await findEntryById(ctx.db, parsed.target.entryId);
  // Without the row there is no binding to check the signature against: the same plain not-found.
  if (entry === undefined || entry.type !== 'file' || entry.storageKey === null) throw errors.notFound();
  await ctx.links.verify(parsed, entry.storageKey);
  const range = parseRange(rangeHeader, entry.size ?? 0);
  return { entry, stream: await ctx.storage.read(entry.storageKey, range), range };
}

/**
 * One `bytes=` range of a file of `size` bytes (`a-b`, `a-`, `-n`). Anything else (several ranges,
 * other units, nothing satisfiable) is ignored and the whole file served, as RFC 9110 allows.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined {
  if (header === undefined || size === 0) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return undefined;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Math.min(Number(last), size);
    return suffix === 0 ? undefined : { start: size - suffix, end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return undefined;
  return { start, end };
}
