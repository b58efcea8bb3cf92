/** A page timing over the rounds: every kept round's figure, their median and the worst. */
export interface PageTiming {
  samplesMs: number[];
  /** Rounds run before these and not kept (warm-up). */
  roundsNotKept: number;
  medianMs: number;
  worstMs: number;
  /** The median over its baseline's median, same run and browser (console figures only). */
  ofBaseline?: number;
}

export function pageTiming(samplesMs: readonly number[], roundsNotKept: number, baseline?: PageTiming): PageTiming {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  const timing: PageTiming = { samplesMs: [...samplesMs], roundsNotKept, medianMs: median, worstMs: sorted.at(-1) as number };
  if (baseline !== undefined && baseline.medianMs > 0) timing.ofBaseline = median / baseline.medianMs;
  return timing;
}
