import { Worker } from 'node:worker_threads';
import { INLINE_HASH_BYTES, type ContentDigests, type DigestChoice } from './content-digests.js';

/**
 * Digests (content-digests.ts) computed on a thread of their own. Every byte a client uploads is
 * hashed (the API answers its SHA-256, MD5, SHA-1 and CRC-32), and an upload's parts are hashed
 * again when it ends to check them (their SHA-256 only): on the server's
 * one event loop that was a third of the CPU spent on each byte received, during which no other
 * request was answered. Here the event loop only hands over blocks of shared memory (one message
 * per block, about a MiB) and waits for the answer while it does other work; the hashing thread
 * is one for the whole process, started when first needed (it costs about 10 MB), and keeps a
 * hash per job so many uploads can be hashed at once, each in the order its blocks were given.
 */
export interface DigestJob {
  /**
   * Adds `bytes` (a view of a SharedArrayBuffer, which the thread reads in place) after the
   * bytes given before. Resolves once they are hashed: until then they must not change.
   */
  update(bytes: Uint8Array): Promise<void>;
  /** The digests of every byte given; the job is over. */
  digest(): Promise<ContentDigests>;
  /** Drops the job (an abandoned write); harmless after digest. */
  discard(): void;
}

/** The hashing thread's code: plain JavaScript, so it runs the same from the build and from the sources. */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { crc32 } = require('node:zlib');
// The same digests as InlineDigests (content-digests.ts), written again in plain JavaScript.
class Digests {
  constructor(choice) {
    this.sha256 = createHash('sha256');
    this.all = choice !== 'sha256';
    this.othersUpTo = choice === 'all-if-small' ? ${INLINE_HASH_BYTES} : Infinity;
    this.size = 0;
    if (this.all) { this.md5 = createHash('md5'); this.sha1 = createHash('sha1'); this.crc = 0; }
  }
  update(bytes) {
    this.sha256.update(bytes);
    this.size += bytes.length;
    if (this.size > this.othersUpTo) this.all = false;
    if (this.all) { this.md5.update(bytes); this.sha1.update(bytes); this.crc = crc32(bytes, this.crc); }
  }
  digest() {
    const sha256 = this.sha256.digest('hex');
    if (!this.all) return { sha256, md5: null, sha1: null, crc32: null };
    return { sha256, md5: this.md5.digest('hex'), sha1: this.sha1.digest('hex'), crc32: (this.crc >>> 0).toString(16).padStart(8, '0') };
  }
}
const hashes = new Map();
parentPort.on('message', (message) => {
  const { request, job, choice, bytes, end } = message;
  if (request === undefined) { hashes.delete(job); return; }
  try {
    let hash = hashes.get(job);
    if (hash === undefined) { hash = new Digests(choice); hashes.set(job, hash); }
    if (bytes !== undefined) hash.update(bytes);
    if (end) { hashes.delete(job); parentPort.postMessage({ request, digests: hash.digest() }); }
    else parentPort.postMessage({ request });
  } catch (error) {
    hashes.delete(job);
    parentPort.postMessage({ request, error: String(error) });
  }
});
`;

interface Waiting {
  resolve(digests: ContentDigests | undefined): void;
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

  ask(job: number, choice: DigestChoice, bytes: Uint8Array | undefined, end: boolean): Promise<ContentDigests | undefined> {
    const worker = this.started();
    this.nextRequest += 1;
    const request = this.nextRequest;
    return new Promise((resolve, reject) => {
      this.waiting.set(request, { resolve, reject });
      // The thread keeps the process alive only while it owes an answer.
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ request, job, choice, bytes, end });
    });
  }

  drop(job: number): void {
    this.worker?.postMessage({ job });
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(THREAD_SOURCE, { eval: true, name: 'digests' });
    worker.on('message', (answer: { request: number; digests?: ContentDigests; error?: string }) => {
      const waiting = this.waiting.get(answer.request);
      if (waiting === undefined) return;
      this.waiting.delete(answer.request);
      if (this.waiting.size === 0) worker.unref();
      if (answer.error !== undefined) waiting.reject(new Error(`hashing failed: ${answer.error}`));
      else waiting.resolve(answer.digests);
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

/** New digests (all of them, or the SHA-256 only) computed on the hashing thread. */
export function digestJob(choice: DigestChoice): DigestJob {
  const job = thread.newJob();
  let over = false;
  return {
    async update(bytes) {
      await thread.ask(job, choice, bytes, false);
    },
    async digest() {
      over = true;
      return (await thread.ask(job, choice, undefined, true)) as ContentDigests;
    },
    discard() {
      if (over) return;
      over = true;
      thread.drop(job);
    },
  };
}
