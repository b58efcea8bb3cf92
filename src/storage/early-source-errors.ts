import type { Readable } from 'node:stream';

function ignore(): void {}

/**
 * A write prepares its file (folders, open) before it starts reading its source. A source that
 * fails in that moment (a client gone, a protocol channel closed) would emit 'error' with nobody
 * listening and take the whole process down. This listener only keeps the process up: the error
 * stays on the stream (`source.errored`), and the pipeline that reads the source later still
 * rejects with it. Call the returned function once the write is over.
 */
export function holdEarlySourceErrors(source: Readable): () => void {
  source.on('error', ignore);
  return () => source.off('error', ignore);
}
