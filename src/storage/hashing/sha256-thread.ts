import { Worker } from 'node:worker_threads';

/**
 * SHA-256 computed on a thread of its own. Every byte a client uploads is hashed (the API answers
 * its SHA-256), and an upload's parts are hashed again when it ends to check them: on the server's
 * one event loop that was a third of the CPU spent on each byte received, during which no other
 * request was answered. Here the event loop only hands over blocks of shared memory (one message
 * per block, about a MiB) and waits for the answer while it does other work; the hashing thread
 * is one for the whole process, started when first needed (it costs about 10 MB), and keeps a
 * hash per job so many uploads can be hashed at once, each in the order its blocks were given.
 */
export interface Sha256Job {
  /**
   * Adds `bytes` (a view of a SharedArrayBuffer, which the thread reads in place) after the
   * bytes given before. Resolves once they are hashed: until then they must not change.
   */
  update(bytes: Uint8Array): Promise<void>;
  /** The hex SHA-256 of every byte given; the job is over. */
  digest(): Promise<string>;
  /** Drops the job (an abandoned write); harmless after digest. */
  discard(): void;
}

/** The hashing thread's code: plain JavaScript, so it runs the same from the build and from the sources. */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', (message) => {
  const { request, job, bytes, end } = message;
  if (request === undefined) { hashes.delete(job); return; }
  try {
    let hash = hashes.get(job);
    if (hash === undefined) { hash = createHash('sha256'); hashes.set(job, hash); }
    if (bytes !== undefined) hash.update(bytes);
    if (end) { hashes.delete(job); parentPort.postMessage({ request, hex: hash.digest('hex') }); }
    else parentPort.postMessage({ request });
  } catch (error) {
    hashes.delete(job);
    parentPort.postMessage({ request, error: String(error) });
  }
});
`;

interface Waiting {
  resolve(hex: string | undefined): void;
  reject(error: Error): void;
}

class HashingThread {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextRequest = 0;
  private nextJob = 0;

  newJob(): number {
    this.nextJob += 1;
    return this.nextJob;
  }

  ask(job: number, bytes: Uint8Array | undefined, end: boolean): Promise<string | undefined> {
    const worker = this.started();
    this.nextRequest += 1;
    const request = this.nextRequest;
    return new Promise((resolve, reject) => {
      this.waiting.set(request, { resolve, reject });
      // The thread keeps the process alive only while it owes an answer.
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ request, job, bytes, end });
    });
  }

  drop(job: number): void {
    this.worker?.postMessage({ job });
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(THREAD_SOURCE, { eval: true, name: 'sha256' });
    worker.on('message', (answer: { request: number; hex?: string; error?: string }) => {
      const waiting = this.waiting.get(answer.request);
      if (waiting === undefined) return;
      this.waiting.delete(answer.request);
      if (this.waiting.size === 0) worker.unref();
      if (answer.error !== undefined) waiting.reject(new Error(`hashing failed: ${answer.error}`));
      else waiting.resolve(answer.hex);
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the hashing thread stopped (exit code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

const thread = new HashingThread();

/** A new SHA-256 computed on the hashing thread. */
export function sha256Job(): Sha256Job {
  const job = thread.newJob();
  let over = false;
  return {
    async update(bytes) {
      await thread.ask(job, bytes, false);
    },
    async digest() {
      over = true;
      return (await thread.ask(job, undefined, true)) as string;
    },
    discard() {
      if (over) return;
      over = true;
      thread.drop(job);
    },
  };
}
