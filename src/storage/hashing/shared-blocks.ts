/**
 * Blocks of memory shared with the hashing thread (sha256-thread.ts), reused from one transfer to
 * the next. Bytes received are gathered into a block, which is then written to the disk and
 * hashed at once, and comes back here when both are done. Reusing them keeps the server's memory
 * flat: a new buffer per chunk is garbage that V8 collects only once tens of MB of it have piled
 * up, and that the allocator does not always give back.
 */
export const BLOCK_BYTES = 1024 * 1024;
/** Free blocks kept for the next transfer (two transfers' worth: 8 MiB at most); more are released. */
const KEPT_BLOCKS = 8;

const free: Buffer[] = [];

export function takeBlock(): Buffer {
  return free.pop() ?? Buffer.from(new SharedArrayBuffer(BLOCK_BYTES));
}

export function giveBack(block: Buffer): void {
  if (free.length < KEPT_BLOCKS) free.push(block);
}
