import type { FileEntry, RangeRequest } from '../../files/index.js';
import { davErrors } from '../dav-error.js';
import type { DavContext } from '../dav-request.js';
import { assertIfHolds } from '../locks/index.js';
import { contentTypeOf } from '../../lib/media-types.js';
import { entityTagOf } from '../properties/entity-tag.js';
import { folderPage } from './folder-page.js';
import { headerOf } from './lookup.js';

/**
 * GET and HEAD (RFC 9110): a file's bytes, streamed, with one `bytes=` Range, ETag and
 * Last-Modified; If-None-Match and If-Modified-Since answer 304, If-Match and
 * If-Unmodified-Since 412, as does an If header none of whose lists holds, before any byte is
 * read (and before a download is recorded). A
 * folder answers a small HTML page of its entries, for a browser pointed at /dav/.
 */
export async function getOrHead(ctx: DavContext): Promise<void> {
  const headersOnly = ctx.request.method === 'HEAD';
  const entry = await ctx.session.stat(ctx.path);
  // The If header applies to every method (RFC 4918 10.4.1): a read too answers 412 when no list holds.
  await assertIfHolds(ctx);
  if (entry.type === 'directory') return folderPage(ctx, entry, headersOnly);

  const tag = entityTagOf(entry);
  const condition = conditionOf(ctx, entry, tag);
  if (condition === 412) throw davErrors.preconditionFailed('The file does not match the request\'s If-Match or If-Unmodified-Since.');
  if (condition === 304) {
    ctx.reply.code(304).header('ETag', tag).header('Last-Modified', new Date(entry.modifiedAt).toUTCString()).send();
    return;
  }
  const ifRange = headerOf(ctx, 'if-range');
  const range = ifRange === undefined || ifRange === tag || ifRange === new Date(entry.mtime).toUTCString() ? rangeOf(headerOf(ctx, 'range')) : undefined;
  const opened = await ctx.session.read(ctx.path, range, { headersOnly });
  const size = opened.entry.size ?? 0;
  ctx.reply
    .header('Content-Type', contentTypeOf(entry.name))
    // Bytes anyone uploaded, reached on the console's origin: never sniffed, never run with its rights.
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', 'sandbox')
    .header('Accept-Ranges', 'bytes')
    .header('ETag', entityTagOf(opened.entry))
    .header('Last-Modified', new Date(opened.entry.modifiedAt).toUTCString());
  if (opened.range === undefined) ctx.reply.code(200).header('Content-Length', String(size));
  else ctx.reply.code(206).header('Content-Range', `bytes ${opened.range.start}-${opened.range.end}/${size}`).header('Content-Length', String(opened.range.end - opened.range.start + 1));
  if (headersOnly) {
    opened.stream.destroy();
    ctx.reply.send();
    return;
  }
  ctx.reply.send(opened.stream);
}

/**
 * 304, 412 or undefined (go on), by RFC 9110 13.2.2's order of the conditional headers. Dates are
 * compared with the server's own `mtime`, not the client's time Last-Modified shows: new contents
 * may carry an older client time, and a date must never call them unchanged (If-Range by date
 * likewise); the entity tags (If-Match, If-None-Match) are exact either way.
 */
function conditionOf(ctx: DavContext, entry: FileEntry, tag: string): 304 | 412 | undefined {
  const seconds = Math.floor(entry.mtime / 1000);
  const ifMatch = headerOf(ctx, 'if-match');
  if (ifMatch !== undefined && !tagListMatches(ifMatch, tag)) return 412;
  const ifUnmodified = ifMatch === undefined ? dateOf(headerOf(ctx, 'if-unmodified-since')) : undefined;
  if (ifUnmodified !== undefined && seconds > ifUnmodified) return 412;
  const ifNoneMatch = headerOf(ctx, 'if-none-match');
  if (ifNoneMatch !== undefined) return tagListMatches(ifNoneMatch, tag) ? 304 : undefined;
  const ifModified = dateOf(headerOf(ctx, 'if-modified-since'));
  if (ifModified !== undefined && seconds <= ifModified) return 304;
  return undefined;
}

/** `*` or a list of entity tags, compared weakly (a W/ prefix is ignored). */
function tagListMatches(header: string, tag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').map((t) => t.trim().replace(/^W\//, '')).includes(tag);
}

function dateOf(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const time = Date.parse(header);
  return Number.isNaN(time) ? undefined : Math.floor(time / 1000);
}

/** One `bytes=` range (`a-b`, `a-`, `-n`); anything else is no range: the whole file is served. */
export function rangeOf(header: string | undefined): RangeRequest | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return undefined;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return undefined;
  if (first === '') return { suffixLength: Number(last) };
  return last === '' ? { start: Number(first) } : { start: Number(first), end: Number(last) };
}
