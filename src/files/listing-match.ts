import type { EntryType } from '../authz/index.js';
import { escapeLike, globMatches, parseNameGlob, type NameGlob } from '../lib/name-glob.js';
import { pathKey } from '../lib/paths.js';
import type { Entry } from '../repositories/entries.js';
import type { ChildConditions } from '../repositories/entry-listing.js';

/**
 * What a listing's entries must be besides visible: a name search, a name pattern, a type, a
 * modification time. Names are matched as paths compare (Unicode NFC, case-insensitively), that is
 * on their path keys: `Résumé` is found by `RÉSU` or by `re\u0301su` alike.
 */
export interface ListingMatch {
  /** Text the name must contain, as a path key (listingMatchOf makes it one). */
  readonly contains: string | undefined;
  /** A pattern the whole name must match, compiled from its path-key form. */
  readonly glob: { readonly source: string; readonly compiled: NameGlob } | undefined;
  readonly type: EntryType | undefined;
  /** Only entries modified strictly after this time (epoch milliseconds). */
  readonly modifiedAfter: number | undefined;
}

/** What a listing asks for the entries when it asks nothing: all of them. */
export const EVERY_ENTRY: ListingMatch = Object.freeze({ contains: undefined, glob: undefined, type: undefined, modifiedAfter: undefined });

/** What the caller asked for, before it is read: texts as sent, the time as a time. */
export interface ListingMatchInput {
  search?: string | undefined;
  filter?: string | undefined;
  type?: EntryType | undefined;
  modifiedAfter?: number | undefined;
}

/** A name text as a path key: NFC, lower case (lib/paths.ts), so it compares as names do. */
function asKey(text: string): string {
  return pathKey(text.normalize('NFC'));
}

/**
 * Only what follows the last `/` counts in a search or a filter (as the Files.com API reads them):
 * a name has no slash, so `reports/q3` searches for `q3`. An empty remainder asks nothing.
 */
function lastSegment(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const tail = text.slice(text.lastIndexOf('/') + 1);
  return tail === '' ? undefined : tail;
}

/**
 * The match a listing's parameters ask for, or the problem with the filter pattern (the caller
 * refuses the request, naming it).
 */
export function listingMatchOf(input: ListingMatchInput): { ok: true; match: ListingMatch } | { ok: false; problem: string } {
  const search = lastSegment(input.search);
  const filter = lastSegment(input.filter);
  let glob: ListingMatch['glob'];
  if (filter !== undefined) {
    const source = asKey(filter);
    const parsed = parseNameGlob(source);
    if (!parsed.ok) return parsed;
    glob = { source, compiled: parsed.glob };
  }
  return { ok: true, match: { contains: search === undefined ? undefined : asKey(search), glob, type: input.type, modifiedAfter: input.modifiedAfter } };
}

/** Whether the match asks for anything at all: a listing that asks nothing is the plain listing. */
export function narrows(match: ListingMatch): boolean {
  return match.contains !== undefined || match.glob !== undefined || match.type !== undefined || match.modifiedAfter !== undefined;
}

/**
 * The match as a string, the same for two matches that select the same entries: a cursor is bound
 * to it, so that a page made for one search is never continued with another.
 */
export function listingMatchKey(match: ListingMatch): string {
  if (!narrows(match)) return '';
  return JSON.stringify([match.contains ?? null, match.glob?.source ?? null, match.type ?? null, match.modifiedAfter ?? null]);
}

/** The match as conditions the database applies in the folder's index range. */
export function childConditionsOf(match: ListingMatch): ChildConditions {
  const nameLike: string[] = [];
  if (match.contains !== undefined) nameLike.push(`%${escapeLike(match.contains)}%`);
  if (match.glob !== undefined) nameLike.push(match.glob.compiled.like);
  return { nameLike, type: match.type, modifiedAfter: match.modifiedAfter };
}

/**
 * Whether the database's conditions already decide the match exactly. A pattern with a set (`[abc]`)
 * is narrowed there to "any one character" and checked here (matchesEntry).
 */
export function exactInDatabase(match: ListingMatch): boolean {
  return match.glob === undefined || match.glob.compiled.exactAsLike;
}

/** The exact match of one entry, name by its path key's last segment. */
export function matchesEntry(match: ListingMatch, entry: Readonly<Entry>): boolean {
  if (match.type !== undefined && entry.type !== match.type) return false;
  if (match.modifiedAfter !== undefined && !(entry.mtime > match.modifiedAfter)) return false;
  const name = entry.pathKey.slice(entry.pathKey.lastIndexOf('/') + 1);
  if (match.contains !== undefined && !name.includes(match.contains)) return false;
  return match.glob === undefined || globMatches(match.glob.compiled, name);
}
