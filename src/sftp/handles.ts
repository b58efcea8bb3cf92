/** Handles one session may hold open at once; OPEN and OPENDIR beyond it fail until one is closed. */
export const MAX_HANDLES_PER_SESSION = 64;

/**
 * The open files and folders of one SFTP session, by the opaque handle the client gets. Bounded,
 * so a client that opens and never closes holds a fixed amount of memory and open files; all are
 * released when the session ends.
 */
export class HandleTable<T> {
  private readonly open = new Map<string, T>();
  private next = 0;

  constructor(private readonly max = MAX_HANDLES_PER_SESSION) {}

  /** A new handle for `item`, or undefined when the session holds the most it may. */
  add(item: T): Buffer | undefined {
    if (this.open.size >= this.max) return undefined;
    this.next += 1;
    const handle = Buffer.from(this.next.toString(16));
    this.open.set(handle.toString('latin1'), item);
    return handle;
  }

  get(handle: Buffer): T | undefined {
    return this.open.get(handle.toString('latin1'));
  }

  /** Every open item, oldest first. */
  values(): IterableIterator<T> {
    return this.open.values();
  }

  /** Removes and answers the handle's item. */
  take(handle: Buffer): T | undefined {
    const key = handle.toString('latin1');
    const item = this.open.get(key);
    this.open.delete(key);
    return item;
  }

  /** Removes and answers every item (the session ended). */
  takeAll(): T[] {
    const items = [...this.open.values()];
    this.open.clear();
    return items;
  }

  get size(): number {
    return this.open.size;
  }
}
