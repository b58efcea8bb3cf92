import { XMLParser } from 'fast-xml-parser';
import { BOOTSTRAP_KEY, type TestApp } from '../support/test-app.js';

/**
 * One file operation as the differential test (differential.property.test.ts) performs it, once
 * through each front door, and what came of it in terms both doors share: the outcome class and,
 * for a listing or a read, what was seen.
 */
export type Operation =
  | { kind: 'list'; path: string }
  | { kind: 'read'; path: string }
  | { kind: 'write'; path: string; content: string }
  | { kind: 'mkdir'; path: string }
  | { kind: 'delete'; path: string }
  | { kind: 'move' | 'copy'; from: string; to: string };

/**
 * What happened, in the vocabulary of docs/webdav.md's status mapping: `ok`, `not-found` (absent or
 * invisible: REST 404, DAV 404), `forbidden` (REST 403, DAV 403), `exists` (REST destination-exists,
 * DAV 412, or 405 for MKCOL or PUT where something is), `conflict` (a missing or file parent: REST
 * destination-parent-*, DAV 409), `invalid-destination` (onto itself or inside itself), `is-folder`
 * (a folder read as a file); anything else keeps its door's status and type so a failure shows it.
 */
export interface Outcome {
  outcome: string;
  /** Relative paths a listing showed, or the text a read returned. */
  seen?: string[] | string;
}

const encoded = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** The REST door, as the user holding `key` (a key of the Workspace, whose root is the path's root). */
export async function viaRest(t: TestApp, key: string, op: Operation): Promise<Outcome> {
  const as = { key };
  switch (op.kind) {
    case 'list': {
      const response = await t.api.get(`/folders/${encoded(op.path)}?per_page=1000`, as);
      return restOutcome(response, () => (response.body as { path: string }[]).map((e) => e.path).sort());
    }
    case 'read': {
      const response = await t.api.get(`/files/${encoded(op.path)}?action=stream`, as);
      return restOutcome(response, () => response.text);
    }
    case 'write':
      return restOutcome(await t.api.call('PUT', `/files/${encoded(op.path)}?mkdir_parents=false`, { ...as, rawBody: op.content, headers: { 'content-type': 'application/octet-stream' } }));
    case 'mkdir':
      return restOutcome(await t.api.post(`/folders/${encoded(op.path)}`, {}, as));
    case 'delete':
      return restOutcome(await t.api.delete(`/files/${encoded(op.path)}?recursive=true`, as));
    case 'move':
    case 'copy':
      return restOutcome(await t.api.post(`/file_actions/${op.kind}/${encoded(op.from)}`, { destination: op.to }, as));
  }
}

function restOutcome(response: { status: number; body: any }, seen?: () => string[] | string): Outcome {
  if (response.status < 300) return seen === undefined ? { outcome: 'ok' } : { outcome: 'ok', seen: seen() };
  const type = String(response.body?.type ?? '');
  if (type.startsWith('not-found')) return { outcome: 'not-found' };
  if (type.startsWith('not-authorized')) return { outcome: 'forbidden' };
  if (type === 'processing-failure/destination-exists') return { outcome: 'exists' };
  if (type.startsWith('processing-failure/destination-parent')) return { outcome: 'conflict' };
  if (type === 'bad-request/destination-same' || type === 'bad-request/destination-inside-source') return { outcome: 'invalid-destination' };
  if (type === 'bad-request/cannot-download-directory') return { outcome: 'is-folder' };
  return { outcome: `REST ${response.status} ${type}` };
}

const xml = new XMLParser({ removeNSPrefix: true, isArray: (name) => name === 'response' || name === 'propstat' });

/** The WebDAV door, as the same user: its key as the Basic user name, the Workspace root as /dav/. */
export async function viaDav(t: TestApp, key: string, op: Operation): Promise<Outcome> {
  const url = (path: string) => `${t.baseUrl}/dav/${encoded(path)}`;
  const authorization = `Basic ${Buffer.from(`${key}:x`).toString('base64')}`;
  const send = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const response = await fetch(url(path), { method, headers: { authorization, ...headers }, ...(body === undefined ? {} : { body }) });
    return { status: response.status, text: await response.text() };
  };
  switch (op.kind) {
    case 'list': {
      const response = await send('PROPFIND', op.path, { depth: '1', 'content-type': 'application/xml' },
        '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/></D:prop></D:propfind>');
      if (response.status !== 207) return davOutcome(op, response);
      const self = op.path.normalize('NFC').toLowerCase();
      const hrefs = (xml.parse(response.text).multistatus?.response ?? []).map((r: { href: string }) => hrefPath(String(r.href)));
      return { outcome: 'ok', seen: hrefs.filter((p: string) => p.toLowerCase() !== self).sort() };
    }
    case 'read': {
      const response = await send('GET', op.path);
      return response.status === 200 ? { outcome: 'ok', seen: response.text } : davOutcome(op, response);
    }
    case 'write':
      return davOutcome(op, await send('PUT', op.path, { 'content-type': 'application/octet-stream' }, op.content));
    case 'mkdir':
      return davOutcome(op, await send('MKCOL', op.path));
    case 'delete':
      return davOutcome(op, await send('DELETE', op.path));
    case 'move':
    case 'copy':
      // `Overwrite: F`: REST never replaces a destination, so neither does the WebDAV side here.
      return davOutcome(op, await send(op.kind.toUpperCase(), op.from, { destination: url(op.to), overwrite: 'F' }));
  }
}

/** A multistatus href (absolute path or URL, percent-encoded) as a path relative to /dav/. */
function hrefPath(href: string): string {
  const pathname = href.startsWith('/') ? href : new URL(href).pathname;
  return decodeURIComponent(pathname).replace(/^\/dav\/?/, '').replace(/\/$/, '');
}

function davOutcome(op: Operation, response: { status: number; text: string }): Outcome {
  let status = response.status;
  // A 207 to DELETE, COPY or MOVE reports a failure inside: the first member's status tells which.
  if (status === 207) {
    const inner = /HTTP\/1\.1 (\d{3})/.exec(response.text)?.[1];
    if (inner !== undefined) status = Number(inner);
  }
  if (status < 300) return { outcome: 'ok' };
  if (status === 404) return { outcome: 'not-found' };
  if (status === 403) return { outcome: 'forbidden' };
  // Something in the way: 412 (`Overwrite: F`, or the file services' destination-exists), or 405
  // (MKCOL where something is, PUT onto a collection).
  if (status === 412 || (status === 405 && (op.kind === 'mkdir' || op.kind === 'write'))) return { outcome: 'exists' };
  if (status === 409) return { outcome: 'conflict' };
  return { outcome: `DAV ${response.status} ${response.text.slice(0, 200)}` };
}

/** Refusals that are about the request's shape, not about the caller's authority. */
const PRECONDITIONS = ['exists', 'conflict', 'invalid-destination'];

/**
 * Whether the two doors agree. Allowed or refused must match, and what was listed or read; a
 * refusal must give the same outcome, with differences that are the protocols' own and not a
 * matter of authority:
 * - WebDAV answers a move or copy onto or into itself with 403 (RFC 4918 9.8.5) or 409;
 * - WebDAV checks its preconditions (`Overwrite: F` onto something, 412; a destination folder that
 *   is missing, 409) on what the caller can see before the file services check its authority, so
 *   where REST says the caller may not (403), or names another precondition, WebDAV may name one;
 * - WebDAV's GET of a collection is not a download (REST: cannot-download-directory).
 * A 404 against a 403, either way, is never accepted: that would show a caller what it may not see.
 */
export function agree(rest: Outcome, dav: Outcome, op: Operation): boolean {
  if (rest.outcome === 'is-folder' && op.kind === 'read') return dav.outcome !== 'not-found' && dav.outcome !== 'forbidden';
  if (rest.outcome === 'ok' || dav.outcome === 'ok') return rest.outcome === dav.outcome && JSON.stringify(rest.seen) === JSON.stringify(dav.seen);
  if (rest.outcome === dav.outcome) return true;
  if (rest.outcome === 'invalid-destination' && dav.outcome === 'forbidden') return true;
  return PRECONDITIONS.includes(dav.outcome) && (rest.outcome === 'forbidden' || PRECONDITIONS.includes(rest.outcome));
}

/** Every entry under a Workspace's root as its administrator sees it: path, type, size and content hash. */
export async function treeOf(t: TestApp, workspaceId: number): Promise<string[]> {
  const root = `_/Workspaces/${workspaceId}`;
  const lines: string[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    const listing = await t.api.get(`/folders/${encoded(folder)}?per_page=1000`, { key: BOOTSTRAP_KEY });
    if (listing.status !== 200) throw new Error(`listing ${folder}: ${listing.status} ${listing.text}`);
    for (const entry of listing.body as { path: string; type: string; size: number | null; sha256: string | null }[]) {
      lines.push(`${entry.path.slice(root.length + 1)} ${entry.type} ${entry.size ?? ''} ${entry.sha256 ?? ''}`);
      if (entry.type === 'directory') pending.push(entry.path);
    }
  }
  return lines.sort();
}
