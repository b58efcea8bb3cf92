import type { BlobRun, BlobStorage } from '../storage/blob-storage.js';

/** Runs kept at once; past that, new uploads are joined when they end, as before. */
const MAX_RUNS = 256;
/** A run not written to for this long is dropped (its upload is abandoned, or sent elsewhere). */
const IDLE_MS = 60 * 60 * 1000;

/** The run of one upload, and the parts it holds. */
export interface RunClaim {
  readonly run: BlobRun;
}

interface Entry extends RunClaim {
  ref: string;
  /** Storage keys (the run's slices) of the parts in the run, in order: parts 1 to n. */
  keys: string[];
  /** A part is being appended. */
  busy: boolean;
  /** Dropped while a part was being appended: closed or discarded once it ends. */
  dropped: boolean;
  touchedAt: number;
}

/**
 * An upload's parts sent in order, one after the other, to this server (what the SDKs do), are
 * each written once, appended as they arrive to one run (BlobRun), and recorded by their slice of
 * it: when the upload ends, the run already holds the file, its SHA-256 and most of it flushed,
 * and becomes the file's blob as it is, instead of every part being read back, checked and
 * copied into a new blob (received-parts.ts).
 *
 * Which run a part continues is this process's own knowledge, in memory, and the run becomes the
 * file only if it holds exactly the upload's parts as the database lists them when it ends.
 * Anything else drops it from here (closed: no more parts go into it) and the upload ends as
 * parts not in order do, each read back by its key and checked: a part sent out of order, again,
 * or while another is on its way; a part received by another node; a restart. That last one is
 * what keeps the run safe without flushing the parts: they are not flushed, and may be lost by an
 * operating system crash, but such a crash also ends this process, so a run only becomes a file
 * in the process that wrote every byte of it, which the OS never lost since; and the run itself
 * is flushed before it becomes the file. A dropped run's file stays while parts refer to it, and
 * goes with its upload (or with its last part, replaced: upload-parts.ts).
 */
export class UploadRuns {
  private readonly runs = new Map<string, Entry>();

  constructor(private readonly storage: BlobStorage, private readonly now: () => number) {}

  /**
   * The run part `partNumber` of upload `ref` is to be appended to, if it is the run's next part
   * (part 1 begins one); undefined otherwise, and the upload's run, if any, is dropped. The claim
   * ends with `appended` or `failed`.
   */
  async claim(ref: string, partNumber: number): Promise<RunClaim | undefined> {
    this.dropIdle();
    const entry = this.runs.get(ref);
    if (entry !== undefined) {
      if (!entry.busy && entry.keys.length === partNumber - 1) {
        entry.busy = true;
        return entry;
      }
      this.drop(entry);
      return undefined;
    }
    if (partNumber !== 1 || this.runs.size >= MAX_RUNS) return undefined;
    const run = await this.storage.beginRun().catch(() => undefined);
    if (run === undefined) return undefined;
    const other = this.runs.get(ref);
    if (other !== undefined) {
      // Another part 1 of the same upload claimed meanwhile: neither is in order. Dropped before
      // this waits for anything, or a third copy of the part could drop it first.
      this.drop(other);
      await run.discard();
      return undefined;
    }
    const created: Entry = { ref, run, keys: [], busy: true, dropped: false, touchedAt: this.now() };
    this.runs.set(ref, created);
    return created;
  }

  /** The claimed part is stored (as the slice `storageKey`) and recorded: it is the run's next part. */
  appended(claim: RunClaim, storageKey: string): void {
    const entry = claim as Entry;
    entry.busy = false;
    entry.touchedAt = this.now();
    entry.keys.push(storageKey);
    // Dropped meanwhile: the part just recorded refers to the run, which stays.
    if (entry.dropped) void entry.run.close();
  }

  /** The claimed part was not stored or not recorded: the run no longer matches the upload. */
  failed(claim: RunClaim): void {
    const entry = claim as Entry;
    entry.busy = false;
    this.drop(entry);
  }

  /**
   * The upload's run, taken for good, if it holds exactly the parts `storageKeys` in this order
   * and no part is on its way; otherwise undefined, and the run is dropped.
   */
  take(ref: string, storageKeys: readonly string[]): BlobRun | undefined {
    const entry = this.runs.get(ref);
    if (entry === undefined) return undefined;
    const whole = !entry.busy && entry.keys.length === storageKeys.length && entry.keys.every((key, i) => key === storageKeys[i]);
    if (!whole) {
      this.drop(entry);
      return undefined;
    }
    this.runs.delete(ref);
    return entry.run;
  }

  private drop(entry: Entry): void {
    if (this.runs.get(entry.ref) === entry) this.runs.delete(entry.ref);
    entry.dropped = true;
    // A part being appended still writes to the run: it is settled once that part ends.
    if (entry.busy) return;
    // Parts recorded here refer to the run's bytes: it takes no more, and stays until they go.
    if (entry.keys.length > 0) void entry.run.close();
    else void entry.run.discard();
  }

  private dropIdle(): void {
    const oldest = this.now() - IDLE_MS;
    for (const entry of this.runs.values()) {
      if (!entry.busy && entry.touchedAt < oldest) this.drop(entry);
    }
  }
}
