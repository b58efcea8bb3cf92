import type { Db } from './database.js';
import type { DataVersion } from './data-version.js';

const versions = new WeakMap<Db, DataVersion>();
/** Past this many entries of one kind, the cache starts over: memory stays bounded whatever the traffic. */
const MAX_ENTRIES_PER_KIND = 20_000;

/** Makes reads through `db` (the root query builder, never a transaction) cacheable under `version`. */
export function registerDataVersion(db: Db, version: DataVersion): void {
  versions.set(db, version);
}

export function dataVersionOf(db: Db): DataVersion | undefined {
  return versions.get(db);
}

/** Limits for one kind of cached read, for values bigger than a few rows. */
export interface CachePolicy<V> {
  /** At most this many entries of the kind (default 20,000). */
  maxEntries?: number;
  /** Whether a loaded value may be kept: big values are answered but not kept. */
  keep?(value: V): boolean;
}

/**
 * Answers `load()`, reusing the answer of an earlier identical read (same `kind` and `key`) while
 * the database's data version has not moved since that read began. Inside a transaction, or where
 * no version is known, it simply loads: a transaction may see its own uncommitted writes, which
 * must never be cached. Cached values are shared between requests: callers must not mutate them.
 */
export async function cachedRead<V>(db: Db, kind: string, key: string, load: () => Promise<V>, policy: CachePolicy<V> = {}): Promise<V> {
  const source = versions.get(db);
  if (source === undefined) return load();
  const version = await source.current();
  if (version === undefined) return load();
  let cache = source.caches.get(kind);
  if (cache === undefined) {
    cache = { version, entries: new Map() };
    source.caches.set(kind, cache);
  }
  if (cache.version === version && cache.entries.has(key)) return cache.entries.get(key) as V;
  const value = await load();
  // Kept only if nothing was written while it loaded: then it is exactly the data of `version`.
  if ((policy.keep?.(value) ?? true) && (await source.current()) === version) {
    if (cache.version !== version) {
      cache.version = version;
      cache.entries.clear();
    }
    if (cache.entries.size >= (policy.maxEntries ?? MAX_ENTRIES_PER_KIND)) cache.entries.clear();
    cache.entries.set(key, value);
  }
  return value;
}
