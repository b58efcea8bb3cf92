import { randomBytes } from 'node:crypto';

const STORAGE_KEY = /^[0-9a-f]{32}$/;
/** `<run key>.<offset>.<size>`: bytes of an upload's run (blob-run.ts), as its parts are recorded. */
const RUN_SLICE = /^([0-9a-f]{32})\.(\d{1,15})\.(\d{1,15})$/;

/** A fresh blob key: 128 random bits, so keys never collide and say nothing about the file. */
export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Backends refuse any other key shape: a key is never built from user input, and checking it
 * again where it becomes a file name keeps a bug elsewhere from ever reaching outside the store.
 */
export function assertStorageKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new TypeError('storage: malformed blob key');
}

/** Where one write appended to a run lies in it. */
export interface RunSlice {
  runKey: string;
  offset: number;
  size: number;
}

/** The key of `size` bytes at `offset` in the run `runKey`: what an upload's part records. */
export function runSliceKey(slice: RunSlice): string {
  assertStorageKey(slice.runKey);
  return `${slice.runKey}.${slice.offset}.${slice.size}`;
}

/** The run slice a key names, or undefined for a key of a blob of its own. */
export function runSliceOf(key: string): RunSlice | undefined {
  const match = RUN_SLICE.exec(key);
  if (match === null) return undefined;
  return { runKey: match[1] as string, offset: Number(match[2]), size: Number(match[3]) };
}
