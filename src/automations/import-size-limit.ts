import { Transform, type TransformCallback } from 'node:stream';
import { ImportFailure } from './import-failure.js';

/**
 * Passes the body on while it stays within `maxBytes`, and fails it at the first byte past that:
 * the body streams through, nothing is held back, and a server that sends without end is cut off.
 * Each piece also counts as the server's progress (`onProgress`), and any error that ends the
 * stream is turned into an ImportFailure (`failureOf`), so the reader sees a message for a log.
 */
export class ImportSizeLimit extends Transform {
  private received = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onProgress: () => void,
    private readonly failureOf: (error: Error) => ImportFailure,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.maxBytes) {
      callback(new ImportFailure(`the file is larger than the limit of ${this.maxBytes} bytes`, true));
      return;
    }
    this.onProgress();
    callback(null, chunk);
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    callback(error === null ? null : this.failureOf(error));
  }
}
