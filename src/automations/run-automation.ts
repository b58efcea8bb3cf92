import type { Readable } from 'node:stream';
import { callerOfAutomation, toRequestPath } from '../access/index.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import type { FileEntry, FileOperations, FileSession } from '../files/index.js';
import type { JobContext } from '../jobs/index.js';
import type { Origin } from '../lib/origin.js';
import { isoTime } from '../lib/time.js';
import {
  type AutomationRun, type AutomationRunStatus, automationRunCause, findAutomationRunById, finishAutomationRun, markAutomationRunRetried,
  markAutomationRunRunning, setAutomationRunRetry,
} from '../repositories/automation-runs.js';
import { type Automation, findAutomationById, type ImportUrl } from '../repositories/automations.js';
import { queueAutomationRun } from './automation-runs.js';
import { RunLog } from './run-log.js';
import { type AutomationRunCause, causeInWords, depthOfCause, parseRunCause } from './run-cause.js';
import { type SourceFile, sourceFiles } from './run-sources.js';
import { deleteFile, ensureFolder, placeFile, type StepOutcome, writeImported } from './run-steps.js';
import { type Wait, withTries } from './step-retries.js';
import { lookUpTimeZone } from './time-zones.js';
import { type DestinationContext, expandDestination } from './tokens.js';

// Carries out one run of an automation (docs/automations.md#runs): the handler of the
// `automation_run` job. The run acts as its automation (access/caller.ts: its Workspace's
// authority, never beyond it), through the same file operations as every front door, so every
// change is checked and recorded in History as any other, naming the automation.

/** Fetches one of `import_urls` (import-fetch.ts, with the site's address rule applied). */
export type ImportFetch = (request: ImportUrl, signal: AbortSignal) => Promise<{ body: Readable; fileName: string }>;

export interface AutomationWorkDeps {
  db: Db;
  files: FileOperations;
  /** Waits between a step's tries, on the server's timer (tests fire it). */
  wait: Wait;
  /** The server's clock. */
  now: () => number;
  importFetch?: ImportFetch;
}

/** A run takes at most this many files: the rest are left for its next run, and its log says so. */
const MAX_FILES_PER_RUN = 100_000;

const DAY_MS = 24 * 60 * 60 * 1000;

export async function carryOutRun(deps: AutomationWorkDeps, runId: number, context: JobContext): Promise<void> {
  const { db } = deps;
  const run = await findAutomationRunById(db, runId);
  // Gone with its automation, or ended already (a node that died after recording it).
  if (run === undefined) return;
  const automation = await findAutomationById(db, run.automationId);
  if (automation === undefined || !(await markAutomationRunRunning(db, runId))) return;
  if (run.retryOfRunId !== null) await markAutomationRunRetried(db, run.retryOfRunId, runId, context.now());
  const started = context.now();
  const cause = parseRunCause((await automationRunCause(db, runId)) ?? '{}');
  const log = new RunLog(() => context.now());
  log.note(causeInWords(cause));
  if (automation.settings.disabled && cause.kind !== 'manual') {
    log.note('The automation is disabled: nothing was done');
    await finish(deps, automation, run, cause, log, 'skipped', started, context);
    return;
  }
  try {
    const origin: Origin = {
      interface: 'automation', ip: null,
      automation: { id: automation.id, name: automation.settings.name === '' ? `#${automation.id}` : automation.settings.name, depth: depthOfCause(cause) },
    };
    const session = await deps.files.session(callerOfAutomation(automation.workspaceId), automation.workspaceId, origin);
    await new RunSteps(deps, session, automation, cause, log, started, context.signal).perform();
  } catch (error) {
    // This attempt lost the job (canceled, or another node took it): its end is not to be recorded.
    if (context.signal.aborted) throw error;
    log.failedStep('The run', messageOf(error));
  }
  const status: AutomationRunStatus = log.failed === 0 ? 'success' : log.successful === 0 ? 'failure' : 'partial_failure';
  await finish(deps, automation, run, cause, log, status, started, context);
}

/**
 * The run's end when its job failed for good (the database away through every attempt, or the node
 * running its last attempt killed): `failure`, saying why, instead of `running` for ever. Its
 * steps' lines are lost with the attempt that wrote them; what they did is in History.
 */
export async function giveUpRun(deps: AutomationWorkDeps, runId: number, error: string): Promise<void> {
  const run = await findAutomationRunById(deps.db, runId);
  if (run === undefined || (run.status !== 'running' && run.status !== 'queued')) return;
  const now = deps.now();
  await finishAutomationRun(deps.db, runId, {
    status: 'failure', successful: 0, failed: 0, log: `${isoTime(now)} The run could not be carried out: ${error}\n`, completedAt: now, runtimeSeconds: 0, retryAt: null,
  });
}

/** Records the run's end; a failed one is queued again when its automation asks for retries. */
async function finish(
  deps: AutomationWorkDeps, automation: Automation, run: AutomationRun, cause: AutomationRunCause, log: RunLog, status: AutomationRunStatus, started: number,
  context: JobContext,
): Promise<void> {
  context.signal.throwIfAborted();
  const now = context.now();
  const { retry_on_failure_interval_in_minutes: interval, retry_on_failure_number_of_attempts: attempts } = automation.settings;
  const failed = status === 'failure' || status === 'partial_failure';
  const retries = failed && interval !== null ? await retriesSoFar(deps.db, run) : undefined;
  const retryAt = retries !== undefined && retries < (attempts ?? 1) ? now + (interval as number) * 60_000 : null;
  await inTransaction(deps.db, async (tx) => {
    await finishAutomationRun(tx, run.id, {
      status, successful: log.successful, failed: log.failed, log: log.text, completedAt: now, runtimeSeconds: (now - started) / 1000, retryAt,
    });
    if (retryAt === null) return;
    const retry = await queueAutomationRun(tx, automation, cause, now, { runAt: retryAt, retryOfRunId: run.id, dedupeKey: `automation-run:${run.id}:retry` });
    if (retry !== undefined) await setAutomationRunRetry(tx, run.id, retry.id);
  });
}

/** How many runs before this one retried the same first run. */
async function retriesSoFar(db: Db, run: AutomationRun): Promise<number> {
  let count = 0;
  let current = run;
  while (current.retryOfRunId !== null && count < 100) {
    const earlier = await findAutomationRunById(db, current.retryOfRunId);
    if (earlier === undefined) break;
    count += 1;
    current = earlier;
  }
  return count;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The steps of one run, by its automation's type. */
class RunSteps {
  private readonly settings: Automation['settings'];
  private readonly timeZone: string;

  constructor(
    private readonly deps: AutomationWorkDeps,
    private readonly session: FileSession,
    private readonly automation: Automation,
    private readonly cause: AutomationRunCause,
    private readonly log: RunLog,
    private readonly started: number,
    private readonly signal: AbortSignal,
  ) {
    this.settings = automation.settings;
    const zone = lookUpTimeZone(this.settings.path_time_zone);
    this.timeZone = zone.ok ? zone.iana : 'Etc/UTC';
  }

  async perform(): Promise<void> {
    switch (this.settings.automation) {
      case 'create_folder':
        return this.createFolders();
      case 'delete_file':
        return this.deleteFiles();
      case 'copy_file':
      case 'move_file':
        return this.copyOrMoveFiles(this.settings.automation === 'move_file');
      case 'import_file':
        return this.importFiles();
      default:
        // Saving refuses other types; one saved before a rule refused it does nothing.
        this.log.failedStep(`A ${this.settings.automation} automation`, 'Atrium cannot run this type');
    }
  }

  /** The tokens' context for a source file (or for none: create_folder, import_file). */
  private context(sourcePath: string, base?: string): DestinationContext {
    const triggering = this.cause.kind === 'action' ? this.cause.destination ?? this.cause.path : undefined;
    return {
      sourcePath,
      ...(base === undefined ? {} : { sourceBase: base }),
      ...(triggering === undefined ? {} : { triggeringPath: this.workspacePath(triggering) }),
      ...(this.cause.kind === 'webhook' ? { webhookParams: this.cause.params } : {}),
      now: new Date(this.started),
      timeZone: this.timeZone,
      destinationReplaceFrom: this.settings.destination_replace_from,
      destinationReplaceTo: this.settings.destination_replace_to,
      flattenDestinationStructure: this.settings.flatten_destination_structure,
    };
  }

  /** A qualified site path as the automation's Workspace shows it. */
  private workspacePath(sitePath: string): string {
    return toRequestPath(this.automation.workspaceId, sitePath) ?? sitePath;
  }

  /** One step: tried up to 3 times, its outcome (or why it failed) logged and counted. */
  private async step(label: string, work: () => Promise<StepOutcome>): Promise<void> {
    try {
      const outcome = await withTries(work, this.deps.wait, this.signal);
      this.log.succeeded(`${label}: ${outcome}`);
    } catch (error) {
      if (this.signal.aborted) throw error;
      this.log.failedStep(label, messageOf(error));
    }
  }

  private async createFolders(): Promise<void> {
    for (const destination of this.settings.destinations) {
      let target: string;
      try {
        target = expandDestination(destination, this.context(''));
      } catch (error) {
        this.log.failedStep(`Create folder ${destination}`, messageOf(error));
        continue;
      }
      await this.step(`Create folder /${target}`, () => ensureFolder(this.session, target));
    }
  }

  /** The files the run takes, all found before any is changed, so a change never moves what is still to be found. */
  private async sources(): Promise<SourceFile[]> {
    const found: SourceFile[] = [];
    for await (const source of sourceFiles(this.session, this.automation, this.cause, this.log)) {
      if (found.length >= MAX_FILES_PER_RUN) {
        this.log.note(`More than ${MAX_FILES_PER_RUN} files matched: the rest are left for the next run`);
        break;
      }
      found.push(source);
    }
    return found;
  }

  private async deleteFiles(): Promise<void> {
    const olderThanDays = olderThanDaysOf(this.settings.value);
    for (const { entry } of await this.sources()) {
      if (olderThanDays !== undefined && entry.modifiedAt > this.started - olderThanDays * DAY_MS) continue;
      await this.step(`Delete /${entry.path}`, () => deleteFile(this.session, entry.path));
    }
  }

  /**
   * Each file to each destination. A move with several destinations copies to all but the first
   * and then moves to the first (Files.com's rule); if a copy failed, the file is not moved, so
   * that it stays where the next run takes it again.
   */
  private async copyOrMoveFiles(move: boolean): Promise<void> {
    const destinations = this.settings.destinations;
    if (destinations.length === 0) {
      this.log.failedStep(move ? 'Move' : 'Copy', 'the automation has no destination');
      return;
    }
    for (const { entry, base } of await this.sources()) {
      const [first, ...rest] = destinations as [string, ...string[]];
      const copies = move ? rest : destinations;
      const failedBefore = this.log.failed;
      for (const destination of copies) await this.place(entry, base, destination, false);
      if (!move) continue;
      if (this.log.failed > failedBefore) {
        this.log.note(`/${entry.path} was not moved, since a copy of it failed: it stays for the next run`);
        continue;
      }
      await this.place(entry, base, first, true);
    }
  }

  private async place(entry: FileEntry, base: string, destination: string, move: boolean): Promise<void> {
    const verb = move ? 'Move' : 'Copy';
    let target: string;
    try {
      target = expandDestination(destination, this.context(entry.path, base));
    } catch (error) {
      this.log.failedStep(`${verb} /${entry.path} to ${destination}`, messageOf(error));
      return;
    }
    await this.step(`${verb} /${entry.path} to /${target}`, () => placeFile(this.session, entry, target, this.settings, move));
  }

  /** Each of `import_urls` fetched once, written to the first destination and copied to the others. */
  private async importFiles(): Promise<void> {
    const fetch = this.deps.importFetch;
    const destinations = this.settings.destinations.length > 0 ? this.settings.destinations : [`${this.settings.path ?? ''}/`];
    for (const request of this.settings.import_urls) {
      const label = `Import ${shownUrl(request.url)}`;
      if (fetch === undefined) {
        this.log.failedStep(label, 'this server cannot fetch URLs');
        continue;
      }
      await this.step(label, async () => {
        const fetched = await fetch(request, this.signal);
        const [first, ...rest] = destinations.map((destination) => expandDestination(destination, this.context(fetched.fileName)));
        const written = await writeImported(this.session, first as string, fetched.body, this.settings);
        for (const other of rest) await placeFile(this.session, written, other, this.settings, false);
        return 'done';
      });
    }
  }
}

/** `value.older_than_days` of a delete_file automation: only files not changed for that many days are deleted. */
function olderThanDaysOf(value: Record<string, unknown> | null): number | undefined {
  const days = value?.older_than_days;
  const number = typeof days === 'string' ? Number(days) : days;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : undefined;
}

/** A URL as a log shows it: without its query, which may hold a token. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'a URL that cannot be read';
  }
}
