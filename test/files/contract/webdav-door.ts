import { XMLParser } from 'fast-xml-parser';
import type { ErrorFamily } from '../../../src/errors/atrium-error.js';
import type { TestApp } from '../../support/test-app.js';
import { rawRequest } from '../../webdav/dav-client.js';
import { assertHomeWorkspace, type DoorEntry, type FileDoor, type Who } from './file-door.js';

/** An answer of WebDAV that is not the method's success: its method, status and text. */
class DavRefusal extends Error {
  constructor(
    readonly method: string,
    readonly status: number,
    readonly text: string,
  ) {
    super(`${method} answered ${status}: ${text.slice(0, 300)}`);
  }
}

/**
 * The families each WebDAV status stands for, as docs/webdav.md maps them. 403 also answers a
 * COPY or MOVE onto or into its own source (RFC 4918 9.8.5), which REST calls a bad request; 405
 * answers a MKCOL or PUT where something is, and a GET of what cannot be downloaded.
 */
function familiesOf(method: string, status: number): ErrorFamily[] | undefined {
  switch (status) {
    case 400:
    case 413:
      return ['bad-request'];
    case 401:
      return ['not-authenticated'];
    case 403:
      return method === 'COPY' || method === 'MOVE' ? ['not-authorized', 'bad-request'] : ['not-authorized'];
    case 404:
      return ['not-found'];
    case 405:
      return method === 'GET' ? ['bad-request'] : ['processing-failure'];
    // A missing or file parent, a folder not empty, something at the destination (`Overwrite: F`).
    case 409:
    case 412:
      return ['processing-failure'];
    case 429:
      return ['rate-limited'];
    default:
      return undefined;
  }
}

const PROPERTIES = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getcontentlength/></D:prop></D:propfind>';
const xml = new XMLParser({ removeNSPrefix: true, parseTagValue: false, isArray: (name) => name === 'response' || name === 'propstat' });

/**
 * WebDAV (/dav/) as a door to the file contract, over real HTTP with each path sent byte for byte
 * (fetch would resolve `.` and `..` before sending, which a hostile client does not). The API key
 * is the Basic user name; /dav/ is the key's home Workspace. A write makes missing folders with
 * MKCOL, as sync clients do; a move or copy sends `Overwrite: F`, since the contract's never
 * replace. WebDAV shows no capabilities and names no error type: a refusal is its status's family.
 */
export function webdavDoor(t: TestApp): FileDoor {
  const send = async (who: Who, method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) => {
    assertHomeWorkspace('WebDAV', who);
    return rawRequest(t.baseUrl, { method, path: davPath(path), headers: options.headers, body: options.body, auth: [who.key, 'x'] });
  };
  const expectStatus = async (who: Who, method: string, path: string, succeeded: number[], options: { headers?: Record<string, string>; body?: string } = {}) => {
    const answer = await send(who, method, path, options);
    if (!succeeded.includes(answer.status)) throw new DavRefusal(method, answer.status, answer.text);
    return answer.text;
  };
  const propfind = async (who: Who, path: string, depth: '0' | '1') =>
    entriesOf(await expectStatus(who, 'PROPFIND', path, [207], { headers: { Depth: depth, 'Content-Type': 'application/xml' }, body: PROPERTIES }));
  const stat = async (who: Who, path: string) => (await propfind(who, path, '0'))[0] as DoorEntry;
  /** MKCOL of each folder above `path` that is not there yet (405: something is). */
  const makeParents = async (who: Who, path: string) => {
    const segments = path.split('/').slice(0, -1);
    for (let i = 1; i <= segments.length; i += 1) await expectStatus(who, 'MKCOL', segments.slice(0, i).join('/'), [201, 405]);
  };
  /**
   * A request on `path` that creates `created`, tried again once the folders above `created` are
   * made when it answers one of `missing`: WebDAV makes no folder on the way (RFC 4918 9.7.1,
   * 9.8.5), so a client does.
   */
  const creating = async (who: Who, request: { method: string; path: string; created: string; missing: number[] }, options: { headers?: Record<string, string>; body?: string }) => {
    let answer = await send(who, request.method, request.path, options);
    if (request.missing.includes(answer.status)) {
      await makeParents(who, request.created);
      answer = await send(who, request.method, request.path, options);
    }
    if (answer.status !== 201 && answer.status !== 204) throw new DavRefusal(request.method, answer.status, answer.text);
  };
  // 409: the destination's folder is missing (or one the caller cannot see).
  const transfer = (method: 'MOVE' | 'COPY') => async (who: Who, from: string, to: string) =>
    creating(who, { method, path: from, created: to, missing: [409] }, { headers: { Destination: `${t.baseUrl}${davPath(to)}`, Overwrite: 'F' } });
  return {
    name: 'WebDAV',
    speaks: { capabilities: false, workspaceSelection: false, dotSegmentsRefused: true, emptyFolderDelete: false },
    list: async (who, path) => (await propfind(who, path, '1')).slice(1),
    stat,
    read: (who, path) => expectStatus(who, 'GET', path, [200]),
    async write(who, path, content) {
      // 409: the folder it goes in is missing; 404: missing, or one the caller cannot see.
      await creating(who, { method: 'PUT', path, created: path, missing: [404, 409] }, { body: content, headers: { 'Content-Type': 'application/octet-stream' } });
      return stat(who, path);
    },
    async createFolder(who, path, options) {
      if (options.mkdirParents) await makeParents(who, path);
      await expectStatus(who, 'MKCOL', path, [201]);
      return stat(who, path);
    },
    move: transfer('MOVE'),
    copy: transfer('COPY'),
    // A folder's DELETE always takes its contents (speaks.emptyFolderDelete): the contract asks
    // this door to delete no folder only when empty.
    delete: async (who, path) => void (await expectStatus(who, 'DELETE', path, [204])),
    refusalOf: (error) => {
      const families = error instanceof DavRefusal ? familiesOf(error.method, error.status) : undefined;
      return families === undefined ? undefined : { families, type: undefined };
    },
    close: async () => undefined,
  };
}

/** The URL path of a path under /dav/: each segment percent-encoded, `.` and `..` sent as they are. */
function davPath(path: string): string {
  return `/dav/${path.split('/').map(encodeURIComponent).join('/')}`;
}

interface PropStat {
  prop?: { resourcetype?: unknown; getcontentlength?: string };
  status?: string;
}

/** The entries of a multistatus, in its order (the requested resource first), from their 200 propstats. */
function entriesOf(text: string): DoorEntry[] {
  const responses = (xml.parse(text).multistatus?.response ?? []) as { href: string; propstat?: PropStat[] }[];
  return responses.map((response) => {
    const found = (response.propstat ?? []).find((propstat) => / 200 /.test(String(propstat.status)))?.prop ?? {};
    const folder = typeof found.resourcetype === 'object' && found.resourcetype !== null && 'collection' in found.resourcetype;
    const pathname = decodeURIComponent(String(response.href).startsWith('/') ? String(response.href) : new URL(String(response.href)).pathname);
    return {
      path: pathname.replace(/^\/dav\/?/, '').replace(/\/$/, ''),
      type: folder ? 'directory' : 'file',
      size: folder ? null : Number(found.getcontentlength),
      capabilities: undefined,
    };
  });
}
