import { AtriumError } from '../../errors/atrium-error.js';
import type { DavLock, FileEntry } from '../../files/index.js';
import { davErrors } from '../dav-error.js';
import { davRelative, decodePath, type DavContext } from '../dav-request.js';
import { entityTagOf } from '../properties/entity-tag.js';
import { parseIfHeader, MalformedIfHeader, type IfCondition, type IfList } from './if-header.js';

// Evaluating an If header (RFC 4918 10.4) against the resources it names: a list holds when every
// condition in it does (AND), the header when any list does (OR). Untagged lists are about the
// Request-URI, tagged ones about their tag's resource. A state token matches a resource when it
// is the token of an unexpired lock covering it; an entity tag when it is the resource's current
// one. A resource that does not exist (or that the caller cannot see) has no locks and no entity tag.

export interface IfOutcome {
  holds: boolean;
  /**
   * The lock tokens the header submits: those named, not negated, in lists that hold. A token in a
   * list that fails (`(<token> ["stale-etag"])`) is not submitted, so it unlocks nothing.
   */
  submitted: ReadonlySet<string>;
}

interface ResourceState {
  etag: string | undefined;
  locks: readonly DavLock[];
}

/** The request's If header as lists; undefined without one; 400 when it is malformed. */
export function ifListsOf(ctx: DavContext): IfList[] | undefined {
  const header = ctx.request.headers.if;
  if (header === undefined) return undefined;
  try {
    return parseIfHeader(Array.isArray(header) ? header.join(' ') : header);
  } catch (error) {
    if (error instanceof MalformedIfHeader) throw davErrors.badRequest(`Malformed If header: ${error.message}`);
    throw error;
  }
}

export async function evaluateIf(ctx: DavContext, lists: readonly IfList[]): Promise<IfOutcome> {
  const states = new Map<string, Promise<ResourceState>>();
  const stateOf = (path: string | undefined) => {
    const key = path ?? '\u0000unknown';
    let state = states.get(key);
    if (state === undefined) {
      state = path === undefined ? Promise.resolve({ etag: undefined, locks: [] }) : resourceState(ctx, path);
      states.set(key, state);
    }
    return state;
  };
  let holds = false;
  const submitted = new Set<string>();
  for (const list of lists) {
    const state = await stateOf(list.resource === undefined ? ctx.path : pathOfTag(list.resource));
    if (!list.conditions.every((condition) => matches(condition, state))) continue;
    holds = true;
    for (const condition of list.conditions) if (condition.kind === 'token' && !condition.not) submitted.add(condition.token);
  }
  return { holds, submitted };
}

function matches(condition: IfCondition, state: ResourceState): boolean {
  const found = condition.kind === 'token'
    ? state.locks.some((lock) => lock.token === condition.token)
    : state.etag !== undefined && opaque(condition.etag) === opaque(state.etag);
  return condition.not ? !found : found;
}

/** An entity tag without its weakness mark: If's tags are compared weakly, as clients copy them from getetag or ETag. */
function opaque(etag: string): string {
  return etag.startsWith('W/') ? etag.slice(2) : etag;
}

async function resourceState(ctx: DavContext, path: string): Promise<ResourceState> {
  try {
    ctx.session.locate(path);
  } catch (error) {
    if (error instanceof AtriumError) return { etag: undefined, locks: [] };
    throw error;
  }
  const [entry, locks] = await Promise.all([visibleEntry(ctx, path), ctx.session.locks.covering(path)]);
  // Locks on something the caller cannot see still match their token: the token itself is the secret.
  return { etag: entry === undefined ? undefined : entityTagOf(entry), locks };
}

async function visibleEntry(ctx: DavContext, path: string): Promise<FileEntry | undefined> {
  try {
    return await ctx.session.stat(path);
  } catch (error) {
    if (error instanceof AtriumError && (error.family === 'not-found' || error.family === 'not-authorized' || error.family === 'bad-request')) return undefined;
    throw error;
  }
}

/** The request path a resource tag names: an absolute URI or an absolute path under /dav/ on this server; undefined otherwise. */
export function pathOfTag(tag: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(tag, 'http://localhost').pathname;
  } catch {
    return undefined;
  }
  const inside = davRelative(pathname);
  if (inside === undefined) return undefined;
  try {
    return decodePath(inside).path;
  } catch {
    return undefined;
  }
}
