import type { FileReader } from '../files/index.js';
import type { Upload } from './open-files.js';

/**
 * A file this session opened to read while it is still writing it on another handle. It reads what
 * has been written so far, as a local file system would; once that writing is closed, the file as
 * it then is. sshfs needs it: the kernel releases a file only after close(2) has returned, so sshfs
 * may send the OPEN that reads a file just written before the CLOSE that commits it.
 */
export class OwnWriteReader {
  private committed: FileReader | undefined;

  constructor(
    readonly writing: Upload,
    private readonly openCommitted: () => Promise<FileReader>,
  ) {}

  async read(offset: number, length: number): Promise<Buffer> {
    if (!this.writing.closed) return this.writing.upload.read(offset, length);
    this.committed ??= await this.openCommitted();
    return this.committed.read(offset, length);
  }

  close(): void {
    this.committed?.close();
  }
}
