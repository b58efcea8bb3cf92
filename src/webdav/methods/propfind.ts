import { cachedRead } from '../../db/read-cache.js';
import { DEFAULT_LISTING_SORT, type ChildPosition, type DeadProperty, type FileEntry } from '../../files/index.js';
import { davErrors } from '../dav-error.js';
import { hrefOf, type DavContext } from '../dav-request.js';
import { lockDiscovery } from '../locks/index.js';
import { isLiveProperty, LIVE_PROPERTIES, liveProperty } from '../properties/live.js';
import { readTextBody } from '../xml/body.js';
import { multistatus, type DavResponse } from '../xml/multistatus.js';
import { childElements, isDav, parseXml, type XmlElement } from '../xml/parse.js';
import { emptyElement } from '../xml/serialize.js';
import { headerOf } from './lookup.js';

/** What a PROPFIND asks for (RFC 4918 9.1). */
type PropfindRequest =
  | { kind: 'allprop'; include: PropertyName[] }
  | { kind: 'propname' }
  | { kind: 'prop'; names: PropertyName[] };

interface PropertyName {
  ns: string;
  name: string;
}

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
  const render = async () => Buffer.from(await rendered(ctx, depth, request), 'utf8');
  const body = showsLocks(request)
    ? await render()
    : await cachedRead(ctx.db, 'dav-propfind', [ctx.session.decisionKey, ctx.session.locate(ctx.path).key, depth, JSON.stringify(request)].join('\u0000'), render, {
      weigh: (value) => value.length,
      maxWeight: MAX_KEPT_BYTES,
    });
  ctx.reply.code(207).type('application/xml; charset=utf-8').send(body);
}

async function rendered(ctx: DavContext, depth: '0' | '1', request: PropfindRequest): Promise<string> {
  const entry = await ctx.session.stat(ctx.path);
  const entries = [entry];
  if (depth === '1' && entry.type === 'directory') entries.push(...(await allChildren(ctx, entry.path)));
  const dead = await ctx.session.deadProperties(entries.map((e) => e.path));
  const locks = showsLocks(request) ? await Promise.all(entries.map((e) => lockDiscovery(ctx, e.path))) : undefined;
  const asked = request.kind === 'prop' ? distinct(request.names) : [];
  return multistatus(entries.map((item, i) => responseOf(item, dead.get(item.path) ?? [], request, asked, locks?.[i] ?? '')));
}

function distinct(names: readonly PropertyName[]): PropertyName[] {
  const seen = new Set<string>();
  return names.filter(({ ns, name }) => {
    const id = `${ns}\n${name}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
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

/** One entry's response; `asked` is a prop request's names without repeats, `lockXml` its lockdiscovery. */
function responseOf(entry: FileEntry, dead: readonly DeadProperty[], request: PropfindRequest, asked: readonly PropertyName[], lockXml: string): DavResponse {
  const href = hrefOf(entry.path, entry.type === 'directory');
  if (request.kind === 'propname') {
    const live = LIVE_PROPERTIES.filter((name) => liveProperty(entry, name, '') !== undefined).map((name) => emptyElement('DAV:', name));
    return { href, propstats: [{ status: 200, props: [...live, ...dead.map((p) => emptyElement(p.namespace, p.name))] }] };
  }
  const found: string[] = [];
  const missing: string[] = [];
  const names = request.kind === 'prop'
    ? asked
    : distinct([...LIVE_PROPERTIES.map((name) => ({ ns: 'DAV:', name })), ...dead.map((p) => ({ ns: p.namespace, name: p.name })), ...request.include]);
  for (const { ns, name } of names) {
    const value = isLiveProperty(ns, name)
      ? liveProperty(entry, name, lockXml)
      : dead.find((p) => p.namespace === ns && p.name === name)?.value;
    if (value !== undefined) found.push(value);
    // allprop lists what the entry has; only asked-for names are reported missing.
    else if (request.kind === 'prop' || request.include.some((n) => n.ns === ns && n.name === name)) missing.push(emptyElement(ns, name));
  }
  return { href, propstats: [{ status: 200, props: found }, { status: 404, props: missing }] };
}
