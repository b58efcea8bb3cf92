/**
 * Blocks of memory shared with the hashing thread (digest-thread.ts), reused from one transfer to
 * the next. Bytes received are gathered into a block, which is then written to the disk and
 * hashed at once, and comes back here when both are done. Reusing them keeps the server's memory
 * flat: a new buffer per chunk is garbage that V8 collects only once tens of MB of it have piled
 * up, and that the allocator does not always give back.
 */
export const BLOCK_BYTES = 1024 * 1024;
/** Free blocks kept once transfers stop (two transfers' worth: 8 MiB at most); more are released. */
const KEPT_BLOCKS = 8;
/** Blocks beyond KEPT_BLOCKS are released only after this long without a block taken. */
const IDLE_MS = 2000;

const free: Buffer[] = [];
let lastTakenAt = 0;
let trimming: NodeJS.Timeout | undefined;

export function takeBlock(): Buffer {
  lastTakenAt = Date.now();
  return free.pop() ?? Buffer.from(new SharedArrayBuffer(BLOCK_BYTES));
}

/**
 * Every block comes back to the free list while transfers go on, however many run at once: a
 * block released then would be allocated again a moment later, and a released block stays
 * allocated until the hashing thread, which was handed a view of it, happens to collect its
 * garbage (with 4 uploads at once that held 20 to 30 MB). The list is cut to KEPT_BLOCKS once no
 * block has been taken for IDLE_MS.
 */
export function giveBack(block: Buffer): void {
  free.push(block);
  if (free.length > KEPT_BLOCKS) trimSoon();
}

function trimSoon(): void {
  if (trimming !== undefined) return;
  trimming = setTimeout(() => {
    trimming = undefined;
    if (Date.now() - lastTakenAt < IDLE_MS) return trimSoon();
    free.length = Math.min(free.length, KEPT_BLOCKS);
  }, IDLE_MS);
  trimming.unref();
}

/** Hashes a copy of `chunk` in shared blocks, so the caller may pass the chunk on at once. */
export async function hashCopy(update: (bytes: Uint8Array) => Promise<void>, chunk: Buffer): Promise<void> {
  for (let offset = 0; offset < chunk.length;) {
    const block = takeBlock();
    const copied = chunk.copy(block, 0, offset);
    offset += copied;
    await update(block.subarray(0, copied));
    giveBack(block);
  }
}
