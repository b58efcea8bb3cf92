import { AtriumError } from '../errors/atrium-error.js';
import { ImportFailure } from './import-failure.js';

// Each step of a run is tried up to 3 times before it counts as failed (docs/automations.md#runs):
// what fails for a moment (a lock another client holds, the storage or a remote server briefly
// away) often works a little later. What can never work on a second try (the source is gone, the
// destination is taken and may not be replaced, the path leaves the Workspace) fails at once.

export const STEP_TRIES = 3;
/** The waits before the second and the third try. */
export const STEP_BACK_OFF_MS: readonly number[] = [15_000, 60_000];

/** Refusals worth another try: a lock, or the server itself not ready. */
const PASSING_TYPES = new Set(['processing-failure/file-locked', 'processing-failure/folder-locked', 'processing-failure/resource-locked']);

/** A step refused for a reason another try cannot change: its log line says it as it is. */
export class StepRefused extends Error {}

/** Whether trying again may help: an Atrium refusal only if it is a passing one; any other failure (storage, network) may pass. */
export function mayPass(error: unknown): boolean {
  if (error instanceof StepRefused || (error instanceof ImportFailure && error.permanent)) return false;
  if (!(error instanceof AtriumError)) return true;
  return PASSING_TYPES.has(error.type) || error.family === 'service-unavailable';
}

/** Waits `ms` (the run's timer, which tests fire); rejects when `signal` aborts. */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

/** Runs `step` until it succeeds, fails for good, or has had its tries; the last failure is thrown. */
export async function withTries<T>(step: () => Promise<T>, wait: Wait, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    signal.throwIfAborted();
    try {
      return await step();
    } catch (error) {
      if (attempt >= STEP_TRIES || !mayPass(error)) throw error;
      await wait(STEP_BACK_OFF_MS[attempt - 1] ?? 60_000, signal);
    }
  }
}
