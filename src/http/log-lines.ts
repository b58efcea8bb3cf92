import fs from 'node:fs';

/** What a pipe takes whole (POSIX PIPE_BUF): a write no longer than this never interleaves with another process's. */
const ATOMIC_WRITE_BYTES = 4096;

/**
 * Log lines for a file descriptor, written together once per turn of the event loop: a busy
 * server writes one batch of lines with one system call instead of one call per line (with the
 * access log on, per-line writes were a sixth of a request's CPU), and a quiet one still writes
 * each line in the turn it was logged, without delay. Writes are synchronous, as pino's default
 * destination's are, so what was logged is out when the process exits; each write holds whole
 * lines and stays within 4 KiB when the lines allow, so the lines of several processes sharing
 * one pipe (ATRIUM_WORKERS) never interleave mid-line.
 */
class BatchedLines {
  private queued: string[] = [];
  private queuedBytes = 0;
  private scheduled = false;

  constructor(private readonly fd: number) {
    // Whatever the last turn logged is written before the process ends, a crash included.
    process.on('exit', () => this.flush());
  }

  /** pino's destination interface: one serialised line, newline included. */
  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.queuedBytes + bytes > ATOMIC_WRITE_BYTES) this.flush();
    this.queued.push(line);
    this.queuedBytes += bytes;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.queued.length === 0) return;
    const text = this.queued.join('');
    this.queued = [];
    this.queuedBytes = 0;
    writeAll(this.fd, Buffer.from(text));
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Writes every byte, waiting out a full pipe (EAGAIN) rather than dropping lines; a closed one (EPIPE) drops them. */
function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(fd, bytes, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        // Non-blocking and full: wait a millisecond for the reader, as a blocking write would.
        Atomics.wait(PAUSE, 0, 0, 1);
        continue;
      }
      if (code === 'EPIPE') return;
      throw error;
    }
  }
}

/** Lines for `fd`, a turn's lines written together; a process needs one per descriptor. */
export function batchedLines(fd: number): { write(line: string): void; flush(): void } {
  return new BatchedLines(fd);
}

let standardOutput: BatchedLines | undefined;

/** The process's one batch of lines for standard output, shared by every logger in it. */
export function standardOutputLines(): { write(line: string): void } {
  standardOutput ??= new BatchedLines(1);
  return standardOutput;
}
