import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import type { FileOperations, FileSession } from '../files/index.js';
import type { Clock } from '../lib/time.js';
import { davErrors } from './dav-error.js';

export const DAV_ROOT = '/dav';

/** What a WebDAV method works with: the caller's file session at its home Workspace, and the request's path in it. */
export interface DavContext {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly caller: Caller;
  readonly session: FileSession;
  /** The request's path as the caller's Workspace shows it, decoded once, no leading or trailing `/` ('' is the root). */
  readonly path: string;
  /** The request URL ended with `/` (a collection's own spelling). */
  readonly trailingSlash: boolean;
  readonly db: Db;
  readonly clock: Clock;
}

/**
 * The context of one request. The Workspace is the caller's home (caller.homeWorkspaceId): a
 * Custom Workspace user's `/dav/` is its Workspace root; a Default Workspace user's is the site
 * root, where a Site Administrator also sees `_/Workspaces/<id>`; a Partner user's is its
 * Partner's root folder (the file session's frame). The file session applies the
 * same rules as the REST API and records History with interface `dav`.
 */
export async function davContext(
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  deps: { db: Db; clock: Clock; files: FileOperations },
): Promise<DavContext> {
  const { path, trailingSlash } = requestPathOf(request.url);
  const session = await deps.files.session(caller, caller.homeWorkspaceId, { interface: 'dav', ip: request.ip });
  return { request, reply, caller, session, path, trailingSlash, db: deps.db, clock: deps.clock };
}

/**
 * The path a `/dav/...` URL names: cut from the URL as sent, percent-decoded exactly once (so
 * `%252F` is a literal `%2F` in a name), without the query. `.`, `..` and control characters are
 * left for the file session to refuse; nothing here resolves them.
 */
export function requestPathOf(url: string): { path: string; trailingSlash: boolean } {
  const queryStart = url.indexOf('?');
  const raw = queryStart === -1 ? url : url.slice(0, queryStart);
  const inside = davRelative(raw);
  if (inside === undefined) throw davErrors.badRequest('Not a WebDAV path.');
  return decodePath(inside);
}

/** The part of a URL path after `/dav`, or undefined when the path is not under it. */
export function davRelative(rawPath: string): string | undefined {
  if (rawPath === DAV_ROOT) return '';
  if (!rawPath.startsWith(`${DAV_ROOT}/`)) return undefined;
  return rawPath.slice(DAV_ROOT.length + 1);
}

export function decodePath(raw: string): { path: string; trailingSlash: boolean } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw davErrors.badRequest('The path is not valid percent-encoded UTF-8.');
  }
  return { path: decoded.replace(/^\/+|\/+$/g, ''), trailingSlash: decoded.endsWith('/') };
}

/** The href of a path as multistatus answers give it: absolute, each segment percent-encoded, a folder with a trailing slash. */
export function hrefOf(path: string, folder: boolean): string {
  if (path === '') return `${DAV_ROOT}/`;
  const encoded = path.split('/').map(encodeSegment).join('/');
  return `${DAV_ROOT}/${encoded}${folder ? '/' : ''}`;
}

/**
 * encodeURIComponent, also encoding `!'()*` and leaving `@` and `:` readable as RFC 3986 allows in
 * a segment: one pass, and none of it allocated for a name that needs neither (most names). The
 * result holds none of `&<>"'`, so an href needs no XML escaping.
 */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(SEGMENT_FIXES, (c) => SEGMENT_FIX[c] as string);
}

const SEGMENT_FIXES = /[!'()*]|%40|%3A/g;
const SEGMENT_FIX: Readonly<Record<string, string>> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '*': '%2A', '%40': '@', '%3A': ':' };

/** The parent of a request path ('' for a top-level entry and the root). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

export function joinPaths(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}
