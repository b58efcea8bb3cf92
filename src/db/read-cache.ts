import type { Db } from './db.js';
import type { DataVersion } from './data-version.js';

const versions = new WeakMap<Db, DataVersion>();
/** Past this many entries of one kind, the cache starts over. */
const MAX_ENTRIES_PER_KIND = 20_000;

/** Makes reads through `db` (the root query builder, never a transaction) cacheable under `version`. */
export function registerDataVersion(db: Db, version: DataVersion): void {
  versions.set(db, version);
}

export function dataVersionOf(db: Db): DataVersion | undefined {
  return versions.get(db);
}

/**
 * Runs `next`, the rest of a request that has just arrived through any front door, so that its
 * cached reads see every change committed before it arrived (DataVersion.arrived).
 */
export function requestArrived<T>(db: Db, next: () => T): T {
  const version = versions.get(db);
  return version === undefined ? next() : version.arrived(next);
}

/**
 * Work that no request carries begins (a background job, a duty of the job runner): its cached
 * reads see every change committed before now (DataVersion.workBegins).
 */
export function workBegins(db: Db): void {
  versions.get(db)?.workBegins();
}

/**
 * Limits for one kind of cached read whose values vary in size (pages of rows, rendered bodies):
 * the kind's values may weigh at most `maxWeight` in all (rows, characters: the caller's unit),
 * and a value heavier than an eighth of that is answered but not kept.
 */
export interface CachePolicy<V> {
  weigh(value: V): number;
  maxWeight: number;
}

/** A kind whose values are lists of rows, holding at most `maxRows` rows in all (an empty list weighs one). */
export function rowsPolicy<V extends { readonly length: number }>(maxRows: number): CachePolicy<V> {
  return { weigh: (rows) => rows.length + 1, maxWeight: maxRows };
}

/**
 * Answers `load()`, reusing the answer of an earlier identical read (same `kind` and `key`) while
 * the database's data version has not moved since that read began. Inside a transaction, or where
 * no version is known, it simply loads: a transaction may see its own uncommitted writes, which
 * must never be cached. Cached values are shared between requests: callers must not mutate them.
 * Each kind holds at most 20,000 values, and at most `policy.maxWeight` when it has a policy:
 * past either, it starts over, so memory stays bounded whatever the traffic. Never cache a read
 * of History's tables: on SQLite their writes do not move the version (db/sqlite-statement-cache.ts).
 */
export async function cachedRead<V>(db: Db, kind: string, key: string, load: () => Promise<V>, policy?: CachePolicy<V>): Promise<V> {
  const source = versions.get(db);
  if (source === undefined) return load();
  // Within a request the version is usually known already: answering a hit without awaiting it
  // spares a turn of the microtask queue on every cached read.
  const known = source.current();
  const version = typeof known === 'string' || known === undefined ? known : await known;
  if (version === undefined) return load();
  let cache = source.caches.get(kind);
  if (cache === undefined) {
    cache = { version, entries: new Map(), weight: 0 };
    source.caches.set(kind, cache);
  }
  if (cache.version === version && cache.entries.has(key)) return cache.entries.get(key) as V;
  const value = await load();
  const weight = policy?.weigh(value) ?? 0;
  if (policy !== undefined && weight > policy.maxWeight / 8) return value;
  // Kept only if nothing was written while it loaded: then it is exactly the data of `version`.
  const after = source.current();
  if ((typeof after === 'string' || after === undefined ? after : await after) === version) {
    if (cache.version !== version || cache.entries.size >= MAX_ENTRIES_PER_KIND || (policy !== undefined && cache.weight + weight > policy.maxWeight)) {
      cache.version = version;
      cache.entries.clear();
      cache.weight = 0;
    }
    cache.entries.set(key, value);
    cache.weight += weight;
  }
  return value;
}
