import fs from 'node:fs';

/** What a pipe takes whole (POSIX PIPE_BUF): a write no longer than this never interleaves with another process's. */
const ATOMIC_WRITE_BYTES = 4096;

/** A busy process writes its queued lines at most this often (a quiet one at once, see below). */
const BATCH_INTERVAL_MS = 10;

/**
 * Log lines for a file descriptor, written together: a busy server writes a batch of lines with
 * one system call instead of one call per line. Each write to a pipe wakes its reader (journald,
 * a container runtime, a shell), and with the access log on that wake-up, once per request, cost
 * more than the rest of the line. A line logged when nothing was written for the last 10 ms is
 * written at the end of its turn of the event loop, without delay; under load the lines of the
 * next 10 ms wait and go together. Writes are synchronous, as pino's default destination's are,
 * and whatever is queued is written before the process exits (a crash included), so a line can be
 * lost only with the process killed outright, and then at most 10 ms of them. Each write holds
 * whole lines and stays within 4 KiB when the lines allow, so the lines of several processes
 * sharing one pipe (ATRIUM_WORKERS) never interleave mid-line.
 */
class BatchedLines {
  private queued: string[] = [];
  private queuedBytes = 0;
  private scheduled = false;
  /** When the last batch was written (performance.now()), or never. */
  private lastWrite = Number.NEGATIVE_INFINITY;

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
      const wait = this.lastWrite + BATCH_INTERVAL_MS - performance.now();
      if (wait <= 0) setImmediate(() => this.flush());
      else setTimeout(() => this.flush(), wait).unref();
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.queued.length === 0) return;
    const text = this.queued.join('');
    this.queued = [];
    this.queuedBytes = 0;
    this.lastWrite = performance.now();
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

/** Lines for `fd`, written in batches (BatchedLines); a process needs one per descriptor. */
export function batchedLines(fd: number): { write(line: string): void; flush(): void } {
  return new BatchedLines(fd);
}

let standardOutput: BatchedLines | undefined;

/** The process's one batch of lines for standard output, shared by every logger in it. */
export function standardOutputLines(): { write(line: string): void } {
  standardOutput ??= new BatchedLines(1);
  return standardOutput;
}
