import type { Readable } from 'node:stream';
import type { SitePath } from '../access/index.js';
import { activity } from '../lib/activity.js';
import type { Entry } from '../repositories/entries.js';
import { readableFile, recordDownload } from './downloads.js';
import type { SessionScope } from './session-scope.js';

/**
 * One version of a readable file, read a piece at a time at any offset (SFTP's READ requests, which
 * a client pipelines in order and may resume from anywhere). The right to read is decided when it
 * is opened, as for a REST download; the version stays the one opened even if the file is
 * replaced meanwhile (blobs are immutable). The download is recorded in History once, when the
 * first byte is read (downloads.ts: a resumed download records nothing).
 *
 * Reads in order continue one stream of the blob, so a whole file costs one open, not one per
 * piece; a jump elsewhere starts a new stream there.
 */
export class FileReader {
  private stream: Readable | undefined;
  private iterator: AsyncIterator<Buffer> | undefined;
  private leftover: Buffer = Buffer.alloc(0);
  /** Offset of the next byte the stream gives (leftover first). */
  private position = 0;
  private recorded = false;

  private constructor(private readonly scope: SessionScope, readonly entry: Entry) {}

  static async open(scope: SessionScope, site: SitePath): Promise<FileReader> {
    const { entry } = await readableFile(scope, site);
    return new FileReader(scope, entry);
  }

  get size(): number {
    return this.entry.size ?? 0;
  }

  /** Up to `length` bytes from `offset`; fewer only at the end of the file, none past it. */
  async read(offset: number, length: number): Promise<Buffer> {
    if (offset >= this.size || length <= 0) return Buffer.alloc(0);
    if (offset === 0 && !this.recorded) {
      this.recorded = true;
      await recordDownload(this.scope, this.entry);
    }
    if (this.iterator === undefined || offset !== this.position) await this.startAt(offset);
    const wanted = Math.min(length, this.size - offset);
    const pieces: Buffer[] = [];
    let have = 0;
    while (have < wanted) {
      if (this.leftover.length === 0) {
        const next = await (this.iterator as AsyncIterator<Buffer>).next();
        if (next.done === true) break;
        this.leftover = next.value;
      }
      const piece = this.leftover.subarray(0, wanted - have);
      this.leftover = this.leftover.subarray(piece.length);
      pieces.push(piece);
      have += piece.length;
    }
    this.position = offset + have;
    activity.emit('bytes-downloaded', have);
    return pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, have);
  }

  close(): void {
    this.stream?.destroy();
    this.stream = undefined;
    this.iterator = undefined;
  }

  private async startAt(offset: number): Promise<void> {
    this.close();
    this.stream = await this.scope.deps.storage.read(this.entry.storageKey as string, { start: offset, end: this.size - 1 });
    this.iterator = this.stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    this.leftover = Buffer.alloc(0);
    this.position = offset;
  }
}
