import path from 'node:path';
import type { Config } from './config/settings.js';
import type { Database } from './db/database.js';
import { ActionTriggers, openImport, registerAutomationWork } from './automations/index.js';
import { createFileOperations, UPLOAD_LIFETIME_MS, type FileOperations } from './files/index.js';
import { pruneHistory } from './history/index.js';
import { automationImportMayReachPrivateAddresses, fileKeepingSettings, historyRetentionDays, PasswordDoor, SecretBox } from './identity/index.js';
import { JobRunner } from './jobs/index.js';
import { type ProviderFetch, SingleSignOn } from './sso/index.js';
import type { Clock } from './lib/time.js';
import type { Timer } from './lib/timer.js';
import type { BlobStorage } from './storage/blob-storage.js';
import { LocalDiskStorage } from './storage/local-disk-storage.js';

/** A crash's leftovers in the temporary directory are removed once this old. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/** How often old History records are looked for (retention is in days, so hourly is ample). */
const HISTORY_RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/** The settings the core's parts and the front doors read (main.ts reads the rest: where to listen, which database, the first start). */
export type CoreConfig = Pick<Config, 'dataDir' | 'maxUploadBytes' | 'headerBrands' | 'logLevel' | 'accessLog' | 'trustProxy'> & Partial<Pick<Config, 'jobLeaseMs'>>;

/**
 * What every front door shares, built once by main.ts: the database, the clock, the settings,
 * file storage, and the feature operations made from them. A front door (app.ts for REST) takes
 * the core and translates its protocol into calls on it.
 */
export interface Core {
  readonly database: Database;
  readonly clock: Clock;
  readonly config: CoreConfig;
  /** File contents, under `<dataDir>/files`. */
  readonly storage: BlobStorage;
  readonly files: FileOperations;
  /**
   * Sign-in by username and password for the doors whose clients send them again and again
   * (WebDAV's Basic, SFTP's password): one per process, so a password verified at one door is
   * remembered once, for both, within one memory bound.
   */
  readonly passwords: PasswordDoor;
  /** Seals the secrets Atrium reads back, under the key file of the data directory (identity/secret-box.ts). */
  readonly secretBox: SecretBox;
  /** Sign-in with OpenID Connect providers (sso/): remembers what their discovery documents said. */
  readonly sso: SingleSignOn;
  /**
   * The background jobs' runner of this process (docs/background-jobs.md): the features that queue
   * background work register their kinds' handlers on it before start().
   */
  readonly jobs: JobRunner;
  /**
   * Clears what a previous run may have left half-written, and starts the housekeeping that runs
   * while the server does (History retention, the background jobs); run once, before any front door opens.
   */
  start(options?: { onHousekeepingError?: (error: unknown) => void; onJobsError?: (error: unknown) => void }): Promise<void>;
  /** Stops the housekeeping and waits for the background job running now; the database stays open for the caller to close. */
  stop(): Promise<void>;
}

/**
 * `timer` waits for the background jobs' polls and heartbeats: main.ts passes the system's, with
 * the system clock; tests pass ones they move by hand. Nothing in the settings chooses them.
 * `identityProviderFetch` is how identity providers are reached: the platform's fetch unless a
 * test gives one that trusts its own certificate authority (nothing in the settings turns off a
 * provider's certificate check, nor allows plain HTTP).
 */
export function createCore(parts: { database: Database; clock: Clock; timer: Timer; config: CoreConfig; identityProviderFetch?: ProviderFetch }): Core {
  const { database, clock, timer, config } = parts;
  const secretBox = SecretBox.inDataDir(config.dataDir);
  const storage = new LocalDiskStorage(path.join(config.dataDir, 'files'));
  let housekeeping: NodeJS.Timeout | undefined;
  let onJobsError: (error: unknown) => void = () => undefined;
  const jobs = new JobRunner({ db: database.db, clock, timer, onError: (error) => onJobsError(error), ...(config.jobLeaseMs === undefined ? {} : { leaseMs: config.jobLeaseMs }) });
  // File actions queue the runs of the `action` automations that watch them (docs/automations.md#action-triggers).
  const files = createFileOperations({
    db: database.db, clock, storage, maxUploadBytes: config.maxUploadBytes, keeping: () => fileKeepingSettings(database.db), watcher: new ActionTriggers(database.db),
  });
  // Deletions past the site's trash retention are purged by a job each hour (docs/files.md#trash-and-versions).
  files.registerHousekeeping(jobs);
  registerAutomationWork(jobs, {
    db: database.db,
    files,
    wait: (ms, signal) => waitOn(timer, ms, signal),
    now: () => clock.now(),
    // An import is a file as any upload is: no larger than the server takes in one.
    importFetch: async (request, signal) => openImport(request, {
      allowPrivateAddresses: await automationImportMayReachPrivateAddresses(database.db), signal, maxBytes: config.maxUploadBytes, timer,
    }),
  });
  const removeOldHistory = async () => {
    await pruneHistory(database.db, clock.now(), await historyRetentionDays(database.db));
  };
  return {
    database,
    clock,
    config,
    storage,
    files,
    passwords: new PasswordDoor(database.db),
    secretBox,
    sso: new SingleSignOn({ db: database.db, clock, secretBox, fetch: parts.identityProviderFetch }),
    jobs,
    async start(options = {}) {
      // File times are the file system's, so they are compared with the real clock.
      // An upload's run holds its parts for as long as the upload may last.
      await storage.removeStaleTemporaryFiles(Date.now(), STALE_TEMPORARY_MS, UPLOAD_LIFETIME_MS + STALE_TEMPORARY_MS);
      // Every node prunes; the chain row's lock lets one at a time remove each batch. A failure
      // (the database briefly away) is reported and tried again at the next interval.
      const onError = options.onHousekeepingError ?? (() => undefined);
      const run = () => void removeOldHistory().catch(onError);
      run();
      housekeeping = setInterval(run, HISTORY_RETENTION_INTERVAL_MS);
      housekeeping.unref();
      // Every node runs the due jobs, each taken by one node; those that came due while the
      // server was down run now. A failure of the runner (the database away) is reported and
      // tried again at the next poll.
      onJobsError = options.onJobsError ?? (() => undefined);
      jobs.start();
    },
    async stop() {
      if (housekeeping !== undefined) clearInterval(housekeeping);
      await jobs.stop();
    },
  };
}

/** Waits `ms` on `timer`; rejects as soon as `signal` aborts. */
function waitOn(timer: Timer, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const stop = () => {
      cancel();
      reject(signal.reason as Error);
    };
    const cancel = timer.after(ms, () => {
      signal.removeEventListener('abort', stop);
      resolve();
    });
    signal.addEventListener('abort', stop, { once: true });
  });
}
