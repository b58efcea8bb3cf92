/**
 * A property's number of runs (or another count) from an environment variable, or `fallback` when
 * it is unset: a typo must not quietly turn a property off, so anything but a positive integer is
 * an error.
 */
export function positiveFromEnvironment(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}
