import type { PropertyChange } from './dead-properties.js';

// What one resource's dead properties may keep in the database. They are the client's own XML,
// shown by every allprop PROPFIND of the resource and its folder; without caps, anyone who may
// write one file could store without bound beside it, outside ATRIUM_MAX_UPLOAD_BYTES.

/** The most dead properties one resource may keep. */
export const MAX_DEAD_PROPERTIES = 256;

/** The most bytes one resource's dead properties may keep: each one's namespace, name and value (its element's XML), in UTF-8, as stored. */
export const MAX_DEAD_PROPERTY_BYTES = 64 * 1024;

/** One stored dead property's place under the caps. */
interface StoredPropertySize {
  namespace: string;
  name: string;
  bytes: number;
}

/** The bytes a dead property keeps, as MAX_DEAD_PROPERTY_BYTES counts them. */
function storedBytes(property: { namespace: string; name: string; value: string }): number {
  return Buffer.byteLength(property.namespace, 'utf8') + Buffer.byteLength(property.name, 'utf8') + Buffer.byteLength(property.value, 'utf8');
}

/**
 * The changes of a request that go past a cap, in the request's order; empty when it may be
 * stored. A request is measured by what it leaves: it may be stored when, on each measure (the
 * number of properties, their bytes), the resource ends within the cap or no larger than it was.
 * So a resource already over a cap (kept from before the caps) keeps its properties and may lose
 * or shrink some, but gains none until it is under. When a request may not be stored, the
 * changes over the cap are those that, applied in order, add a property or bytes beyond what that
 * measure may reach.
 */
export function changesOverLimit(existing: readonly StoredPropertySize[], changes: readonly PropertyChange[]): PropertyChange[] {
  const start = new Usage(existing);
  const countLimit = Math.max(MAX_DEAD_PROPERTIES, start.count);
  const bytesLimit = Math.max(MAX_DEAD_PROPERTY_BYTES, start.bytes);

  const end = new Usage(existing);
  for (const change of changes) end.apply(change);
  const countOver = end.count > countLimit;
  const bytesOver = end.bytes > bytesLimit;
  if (!countOver && !bytesOver) return [];

  const running = new Usage(existing);
  const over: PropertyChange[] = [];
  for (const change of changes) {
    const before = { count: running.count, bytes: running.bytes };
    running.apply(change);
    const adds = countOver && running.count > before.count && running.count > countLimit;
    const grows = bytesOver && running.bytes > before.bytes && running.bytes > bytesLimit;
    if (adds || grows) over.push(change);
  }
  return over;
}

/** A resource's dead properties by size, with their number and total kept as changes are applied. */
class Usage {
  private readonly sizes: Map<string, number>;
  bytes = 0;

  constructor(existing: readonly StoredPropertySize[]) {
    this.sizes = new Map(existing.map((property) => [keyOf(property), property.bytes]));
    for (const bytes of this.sizes.values()) this.bytes += bytes;
  }

  get count(): number {
    return this.sizes.size;
  }

  apply(change: PropertyChange): void {
    const key = keyOf(change);
    this.bytes -= this.sizes.get(key) ?? 0;
    if (change.value === undefined) {
      this.sizes.delete(key);
      return;
    }
    const bytes = storedBytes({ namespace: change.namespace, name: change.name, value: change.value });
    this.sizes.set(key, bytes);
    this.bytes += bytes;
  }
}

/** A property's identity: its namespace and name, which no XML name can blur together. */
function keyOf(property: { namespace: string; name: string }): string {
  return `${property.namespace}\u0000${property.name}`;
}
