import { Transform, type TransformCallback } from 'node:stream';
import { syncFile } from './sync-file.js';

/**
 * Passes bytes on to a file being written and, every `everyBytes`, asks the disk to write what
 * the file holds so far (fdatasync, one at a time, not waited for). Without it the kernel keeps a
 * new file's pages in memory until the final fsync, which then writes all of it while nothing
 * else happens: receiving and hashing the bytes, then writing them, one after the other. With it
 * the disk writes while the rest still arrives, and the final fsync, still made before the file
 * is renamed into place, has only the tail left. It adds flushes, never removes one.
 */
export class FlushAsYouGo extends Transform {
  private sinceFlush = 0;
  private inFlight: Promise<void> | undefined;

  constructor(private readonly file: string, private readonly everyBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.sinceFlush += chunk.length;
    if (this.sinceFlush >= this.everyBytes && this.inFlight === undefined) {
      this.sinceFlush = 0;
      // A failure here is not the write's: the final fsync reports any real one.
      this.inFlight = syncFile(this.file, { dataOnly: true }).catch(() => undefined).finally(() => { this.inFlight = undefined; });
    }
    callback(null, chunk);
  }

  /** Waits for a flush still under way (before the file is flushed for good or removed). */
  async settled(): Promise<void> {
    await this.inFlight;
  }
}
