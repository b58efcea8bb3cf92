/** How long a failed attempt waits before the next: the first retry soon, later ones ever later. */
const FIRST_RETRY_MS = 10_000;
const GROWTH = 4;
/** No job waits longer than this between attempts, however many it is allowed. */
const LONGEST_RETRY_MS = 60 * 60 * 1000;

/**
 * The wait after failed attempt number `attempt` (1 for the first): 10 s × 4^(attempt − 1),
 * at most one hour. With the default three attempts: 10 s after the first, 40 s after the second.
 */
export function retryDelayMs(attempt: number): number {
  return Math.min(FIRST_RETRY_MS * GROWTH ** Math.max(0, attempt - 1), LONGEST_RETRY_MS);
}
