import v8 from 'node:v8';

/** The old generation may grow to twice what survived the last full collection before the next one. */
const HEAP_GROWING_PERCENT = 100;
const FLAG = 'heap-growing-percent';

/**
 * Keeps a serving process's heap near what it holds, not four times that. After each full
 * collection V8 lets the old generation grow by a factor it picks from the collector's speed,
 * capped by the heap's own limit: 4 where that limit is large, as V8 makes it on a machine with
 * several GB of memory (4,144 MB on the bench's 24 GB machine). A server's requests
 * outlive a young-generation collection or two while they wait for the database, so a steady
 * share of each request's garbage is promoted, and with about 30 MB alive the old generation
 * filled with garbage to 120 to 140 MB before each full collection (an idle server at 110 to 150
 * MB, the same process at 250 to 320 MB under the bench's loads). Twice what survived keeps the
 * garbage near what is alive, at a full collection every few seconds under load instead of every
 * 15 to 20 (11 to 14 ms each on the event loop, the marking mostly on V8's own threads; no CPU
 * per request lost that the bench could see): docs/benchmarks.md, "2026-11-28: resident memory
 * under load".
 *
 * The factor is read by V8 at each full collection, so it can be set once the process runs; a
 * value given to node itself (`node --heap-growing-percent=…`, NODE_OPTIONS) is the operator's
 * and is kept.
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv, nodeOptions: string | undefined = process.env.NODE_OPTIONS): void {
  const flag = heapGrowthFlag(execArgv, nodeOptions);
  if (flag !== undefined) v8.setFlagsFromString(flag);
}

/** The flag to set, or undefined where node was given one (V8 accepts `_` for `-` in flag names). */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | undefined {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((argument) => argument.replaceAll('_', '-').startsWith(`--${FLAG}`));
  return given ? undefined : `--${FLAG}=${HEAP_GROWING_PERCENT}`;
}
