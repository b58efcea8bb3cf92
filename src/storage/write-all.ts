import type { FileHandle } from 'node:fs/promises';

/** Writes every byte of `bytes` at `position`: a positioned write may store fewer than asked (rarely, for a file), and the rest follows. */
export async function writeAll(file: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}
