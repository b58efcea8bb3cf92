import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Bytes of short-lived buffers between two collections of V8's young generation.
 */
const COLLECT_EVERY_BYTES = 8 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;

/**
 * Keeps the memory a transfer leaves behind it small. Every body chunk a request delivers is a new
 * buffer (Node's HTTP parser copies each one), and so is every chunk read from a blob; once
 * passed on they are garbage, but V8 frees them only when its young generation fills with other
 * garbage, which with a few KB of objects per 64 KiB chunk happens every tens of MB, or when
 * their external memory has grown by 64 MB. Between the two, one transfer held 5 to 35 MB of dead
 * buffers and four uploads at once up to 75 MB. A young-generation collection every 8 MiB,
 * whatever the number of transfers, frees them as they go (about 12 MB are dead at any time, as
 * V8 frees them a little after the collection), at 0.1 to 0.5 ms each: about 0.04 ms per MiB.
 *
 * V8's own `gc` is reached through a new context made once with `--expose-gc` set for its
 * making only (the way test runners measure leaks); where that is refused, nothing is paced.
 */
export function passedThrough(bytes: number): void {
  since += bytes;
  if (since < COLLECT_EVERY_BYTES) return;
  since = 0;
  if (collect === undefined) collect = youngCollector();
  collect?.({ type: 'minor' });
}

let since = 0;
let collect: Collect | null | undefined;

function youngCollector(): Collect | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    return null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
