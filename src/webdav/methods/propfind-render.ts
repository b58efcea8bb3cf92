import type { DeadProperty, FileEntry } from '../../files/index.js';
import { encodeSegment, hrefOf } from '../dav-request.js';
import { isLiveProperty, LIVE_PROPERTIES, liveProperty, type LiveProperty } from '../properties/live.js';
import { statusLine, xmlDeclaration } from '../xml/multistatus.js';
import { emptyElement } from '../xml/serialize.js';

/** What a PROPFIND asks for (RFC 4918 9.1). */
export type PropfindRequest =
  | { kind: 'allprop'; include: PropertyName[] }
  | { kind: 'propname' }
  | { kind: 'prop'; names: PropertyName[] };

export interface PropertyName {
  ns: string;
  name: string;
}

/** What a PROPFIND answer is built from, all read before: the entries, then per path their dead properties and lockdiscovery. */
export interface PropfindData {
  /** The request's entry first, then (Depth 1 of a folder) its members, as the session listed them. */
  entries: readonly FileEntry[];
  dead: ReadonlyMap<string, readonly DeadProperty[]>;
  /** The inner XML of an entry's DAV:lockdiscovery; only called when the request shows it. */
  lockXml: (path: string) => string;
}

const OK = `<D:status>${statusLine(200)}</D:status></D:propstat>`;
const NOT_FOUND = `<D:status>${statusLine(404)}</D:status></D:propstat>`;
const NO_DEAD: readonly DeadProperty[] = [];

/**
 * A PROPFIND's 207 body, built in one synchronous pass over entries already read: each response is
 * text appended as it is made (no per-entry object trees, no waiting), the asked-for names resolved
 * once for the request, and a member's href its folder's href plus its encoded name. The same
 * answer, byte for byte, as building each response from the multistatus builder would give.
 */
export function renderPropfind(request: PropfindRequest, data: PropfindData): string {
  const parts: string[] = [`${xmlDeclaration}<D:multistatus xmlns:D="DAV:">`];
  const hrefs = hrefMaker(data.entries[0]);
  const respond = responder(request, data);
  for (const entry of data.entries) parts.push(`<D:response><D:href>${hrefs(entry)}</D:href>${respond(entry)}</D:response>`);
  parts.push('</D:multistatus>\n');
  return parts.join('');
}

/** The names without repeats, the first of each kept. */
export function distinctNames(names: readonly PropertyName[]): PropertyName[] {
  const seen = new Set<string>();
  return names.filter(({ ns, name }) => {
    const id = `${ns}\n${name}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Hrefs (dav-request.ts hrefOf): the folder's own, and each member's as the folder's plus its one
 * encoded segment, rather than splitting and encoding the whole path again for each member.
 * Encoded segments hold no character XML escapes.
 */
function hrefMaker(first: FileEntry | undefined): (entry: FileEntry) => string {
  if (first === undefined) return (entry) => hrefOf(entry.path, entry.type === 'directory');
  const folderHref = hrefOf(first.path, true);
  const prefix = first.path === '' ? '' : `${first.path}/`;
  return (entry) => {
    const folder = entry.type === 'directory';
    if (entry === first || entry.path.length !== prefix.length + entry.name.length || !entry.path.startsWith(prefix)) return hrefOf(entry.path, folder);
    return `${folderHref}${encodeSegment(entry.name)}${folder ? '/' : ''}`;
  };
}

function propstats(found: string, missing: string): string {
  return (found === '' ? '' : `<D:propstat><D:prop>${found}</D:prop>${OK}`) + (missing === '' ? '' : `<D:propstat><D:prop>${missing}</D:prop>${NOT_FOUND}`);
}

/** The propstats of one entry, by the request's kind; names are sorted out once here, not per entry. */
function responder(request: PropfindRequest, data: PropfindData): (entry: FileEntry) => string {
  const deadOf = (entry: FileEntry) => data.dead.get(entry.path) ?? NO_DEAD;
  const lockXml = (entry: FileEntry) => data.lockXml(entry.path);

  if (request.kind === 'propname') {
    return (entry) => {
      let names = '';
      for (const name of LIVE_PROPERTIES) if (liveProperty(entry, name, '') !== undefined) names += `<D:${name}/>`;
      for (const p of deadOf(entry)) names += emptyElement(p.namespace, p.name);
      return propstats(names, '');
    };
  }

  if (request.kind === 'prop') {
    // Each asked name once: a live one computed, any other looked up among the entry's dead ones.
    const asked = distinctNames(request.names).map(({ ns, name }) => ({ ns, name, live: isLiveProperty(ns, name) ? name : undefined, empty: emptyElement(ns, name) }));
    const needsLocks = asked.some((n) => n.live === 'lockdiscovery');
    return (entry) => {
      const dead = deadOf(entry);
      const locks = needsLocks ? lockXml(entry) : '';
      let found = '';
      let missing = '';
      for (const n of asked) {
        const value = n.live !== undefined ? liveProperty(entry, n.live, locks) : dead.find((p) => p.namespace === n.ns && p.name === n.name)?.value;
        if (value !== undefined) found += value;
        else missing += n.empty;
      }
      return propstats(found, missing);
    };
  }

  // allprop: every live property the entry has, then its dead ones, then what `include` names that
  // it lacks (only asked-for names are reported missing). A dead property never shadows a live one.
  const include = distinctNames(request.include);
  const includedLive = new Set(include.filter(({ ns, name }) => isLiveProperty(ns, name)).map(({ name }) => name as LiveProperty));
  const includedOther = include.filter(({ ns, name }) => !isLiveProperty(ns, name)).map(({ ns, name }) => ({ ns, name, empty: emptyElement(ns, name) }));
  return (entry) => {
    const dead = deadOf(entry);
    const locks = lockXml(entry);
    let found = '';
    let missing = '';
    for (const name of LIVE_PROPERTIES) {
      const value = liveProperty(entry, name, locks);
      if (value !== undefined) found += value;
      else if (includedLive.has(name)) missing += `<D:${name}/>`;
    }
    for (const p of dead) if (!isLiveProperty(p.namespace, p.name)) found += p.value;
    for (const n of includedOther) if (!dead.some((p) => p.namespace === n.ns && p.name === n.name)) missing += n.empty;
    return propstats(found, missing);
  };
}
