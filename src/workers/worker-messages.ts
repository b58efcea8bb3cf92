import cluster from 'node:cluster';

/** What a worker tells the primary once every one of its listeners is open. */
export const WORKER_READY = 'atrium:worker-ready';

/** True in a process the primary started as a worker (ATRIUM_WORKERS above 1). */
export function isWorker(): boolean {
  return cluster.isWorker;
}

/** This worker's number, 1 for the first the primary started (a restarted worker gets the next). */
export function workerId(): number {
  return cluster.worker?.id ?? 0;
}

/** Tells the primary this worker serves: it counts workers until all have said so. */
export function reportReady(): void {
  process.send?.({ type: WORKER_READY });
}
