import cluster, { type Worker } from 'node:cluster';
import { WORKER_READY } from './worker-messages.js';

/** A worker that dies within this long of being started is started again only after this long, so a crash at start-up does not spin. */
const RESTART_BACKOFF_MS = 1_000;

export interface SupervisorLog {
  info(message: string): void;
  warn(message: string): void;
}

/** The primary's hold on its workers. */
export interface Supervisor {
  /** Resolves once every worker serves; rejects if one exits before all do (it printed why). */
  readonly ready: Promise<void>;
  /** Passes a signal on to every worker (SIGHUP: reload the certificate). */
  signalAll(signal: NodeJS.Signals): void;
  /**
   * SIGTERM to every worker, which finishes its requests in flight and exits; resolves once all
   * have exited, true when every one exited 0. Nothing is restarted from then on.
   */
  stop(): Promise<boolean>;
}

/**
 * Starts `count` workers: copies of this program that node:cluster runs with the same settings.
 * They share the listening ports (the primary accepts connections and hands them round), and each
 * serves requests alone. A worker that exits unasked once all served is replaced, with one line.
 */
export function superviseWorkers(count: number, log: SupervisorLog): Supervisor {
  const startedAt = new Map<Worker, number>();
  const ready = new Set<Worker>();
  const exitCodes: (number | null)[] = [];
  let stopping = false;
  let allReady = false;
  let onAllStopped: (() => void) | undefined;
  let pendingRestarts = 0;

  const start = () => startedAt.set(cluster.fork(), Date.now());
  const alive = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);

  const readyPromise = new Promise<void>((resolve, reject) => {
    cluster.on('message', (worker, message: unknown) => {
      if ((message as { type?: unknown } | null)?.type !== WORKER_READY) return;
      ready.add(worker);
      if (!allReady && ready.size === count) {
        allReady = true;
        resolve();
      }
    });
    cluster.on('exit', (worker, code, signal) => {
      const began = startedAt.get(worker) ?? 0;
      startedAt.delete(worker);
      ready.delete(worker);
      if (stopping) {
        exitCodes.push(code);
        if (alive().length === 0 && pendingRestarts === 0) onAllStopped?.();
        return;
      }
      if (!allReady) {
        // A worker that cannot start (the port taken, the database away) stops the whole server.
        reject(new Error(`worker ${worker.id} exited before it served (${how(code, signal)})`));
        return;
      }
      const delay = Date.now() - began < RESTART_BACKOFF_MS ? RESTART_BACKOFF_MS : 0;
      log.warn(`worker ${worker.id} (pid ${worker.process.pid}) ${how(code, signal)}; starting another${delay > 0 ? ` in ${delay} ms` : ''}`);
      pendingRestarts += 1;
      setTimeout(() => {
        pendingRestarts -= 1;
        if (!stopping) start();
        else if (alive().length === 0 && pendingRestarts === 0) onAllStopped?.();
      }, delay);
    });
  });
  for (let i = 0; i < count; i += 1) start();

  return {
    ready: readyPromise,
    signalAll(signal) {
      for (const worker of alive()) worker.process.kill(signal);
    },
    stop() {
      stopping = true;
      const workers = alive();
      const stopped = new Promise<void>((resolve) => {
        onAllStopped = resolve;
        if (workers.length === 0 && pendingRestarts === 0) resolve();
      });
      // SIGTERM whatever the primary got: a worker that also had SIGINT from the terminal (Ctrl-C
      // reaches the whole process group) is already closing, and a second, different signal
      // finds its handler still in place.
      for (const worker of workers) worker.process.kill('SIGTERM');
      return stopped.then(() => exitCodes.every((code) => code === 0));
    },
  };
}

function how(code: number | null, signal: string | null): string {
  return signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
}
