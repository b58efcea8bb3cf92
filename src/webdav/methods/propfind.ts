import { cachedRead } from '../../db/read-cache.js';
import { DEFAULT_LISTING_SORT, type ChildPosition, type FileEntry } from '../../files/index.js';
import { davErrors } from '../dav-error.js';
import type { DavContext } from '../dav-request.js';
import { assertIfHolds, lockDiscoveryOfRequest } from '../locks/index.js';
import { readTextBody } from '../xml/body.js';
import { childElements, isDav, parseXml, type XmlElement } from '../xml/parse.js';
import { headerOf } from './lookup.js';
import { renderPropfind, type PropertyName, type PropfindRequest } from './propfind-render.js';

const PAGE = 10_000;
/** Rendered answers kept, in bytes: at most 48 MiB whatever the traffic (one answer at most 6 MiB). */
const MAX_KEPT_BYTES = 48 * 1024 * 1024;

/**
 * PROPFIND, Depth 0 or 1 (RFC 4918 9.1). Depth infinity, also when no Depth is sent, is refused
 * with `propfind-finite-depth` (403): a whole tree in one answer is the server's to refuse. The
 * entries come from the caller's file session (stat and list), so a listing shows exactly what
 * the REST API lists; each entry's properties are live ones computed from it and the dead ones a
 * client stored. A property an entry lacks is in a 404 propstat.
 *
 * The answer is a function of the data and of who asks, so, as the REST API's listing pages, it is
 * kept until the data changes (db/read-cache.ts): a sync client polling a big folder costs a
 * version check, not a walk of the grants. Except when it shows lockdiscovery, whose remaining
 * timeouts change with the clock.
 */
export async function propfind(ctx: DavContext): Promise<void> {
  const depth = headerOf(ctx, 'depth')?.trim().toLowerCase() ?? 'infinity';
  if (depth === 'infinity') throw davErrors.forbidden('PROPFIND with Depth: infinity is not served; use Depth 0 or 1.', 'propfind-finite-depth');
  if (depth !== '0' && depth !== '1') throw davErrors.badRequest('Depth must be 0, 1 or infinity.');
  const request = propfindRequestOf(await readTextBody(ctx));
  // The If header applies to every method (RFC 4918 10.4.1), checked before any kept answer is given.
  await assertIfHolds(ctx);
  const render = async () => Buffer.from(await rendered(ctx, depth, request), 'utf8');
  const body = showsLocks(request)
    ? await render()
    : await cachedRead(ctx.db, 'dav-propfind', [ctx.session.decisionKey, ctx.session.locate(ctx.path).key, depth, JSON.stringify(request)].join('\u0000'), render, {
      weigh: (value) => value.length,
      maxWeight: MAX_KEPT_BYTES,
    });
  ctx.reply.code(207).type('application/xml; charset=utf-8').send(body);
}

/**
 * Reads what the answer shows, in a fixed number of queries whatever the folder's size (the
 * listing's pages, one for the dead properties, one pair for the locks), then renders it in one
 * synchronous pass (propfind-render.ts).
 */
async function rendered(ctx: DavContext, depth: '0' | '1', request: PropfindRequest): Promise<string> {
  const entry = await ctx.session.stat(ctx.path);
  const entries = [entry];
  const members = depth === '1' && entry.type === 'directory';
  if (members) entries.push(...(await allChildren(ctx, entry.path)));
  const paths = entries.map((e) => e.path);
  const [dead, lockXml] = await Promise.all([
    members ? ctx.session.deadPropertiesInFolder(entry.path, paths) : ctx.session.deadProperties(paths),
    showsLocks(request) ? lockDiscoveryOfRequest(ctx) : () => '',
  ]);
  return renderPropfind(request, { entries, dead, lockXml });
}

function showsLocks(request: PropfindRequest): boolean {
  const lockdiscovery = (names: readonly PropertyName[]) => names.some((n) => n.ns === 'DAV:' && n.name === 'lockdiscovery');
  if (request.kind === 'propname') return false;
  return request.kind === 'allprop' || lockdiscovery(request.names);
}

async function allChildren(ctx: DavContext, path: string): Promise<FileEntry[]> {
  const children: FileEntry[] = [];
  let after: ChildPosition | undefined;
  do {
    const page = await ctx.session.list(path, { sort: DEFAULT_LISTING_SORT, after, limit: PAGE });
    children.push(...page.entries);
    after = page.next;
  } while (after !== undefined);
  return children;
}

/** An empty body is allprop (RFC 4918 9.1); anything else must be a DAV:propfind. */
export function propfindRequestOf(body: string): PropfindRequest {
  if (body.trim() === '') return { kind: 'allprop', include: [] };
  const root = parseXml(body);
  if (!isDav(root, 'propfind')) throw davErrors.badRequest('The body of a PROPFIND must be a DAV:propfind element.');
  const children = childElements(root);
  const prop = children.find((c) => isDav(c, 'prop'));
  if (prop !== undefined) return { kind: 'prop', names: namesIn(prop) };
  if (children.some((c) => isDav(c, 'propname'))) return { kind: 'propname' };
  if (children.some((c) => isDav(c, 'allprop'))) {
    const include = children.find((c) => isDav(c, 'include'));
    return { kind: 'allprop', include: include === undefined ? [] : namesIn(include) };
  }
  throw davErrors.badRequest('A DAV:propfind holds DAV:prop, DAV:propname or DAV:allprop.');
}

function namesIn(element: XmlElement): PropertyName[] {
  return childElements(element).map((c) => ({ ns: c.ns, name: c.name }));
}
