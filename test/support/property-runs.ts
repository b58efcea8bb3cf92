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

/**
 * A database property's runs on the target: `onSqlite` on SQLite, a third as many (at least 3) on
 * PostgreSQL, or `name`'s value on both. The decisions under test are the same code on both
 * databases; the PostgreSQL half is there for what the database does differently (its SQL, its
 * transactions, its ordering), which fewer random sites reach as surely, and the suite keeps its
 * time. A deeper run sets the variable.
 */
export function runsOn(target: { name: string }, name: string, onSqlite: number): number {
  return positiveFromEnvironment(name, target.name === 'sqlite' ? onSqlite : Math.max(3, Math.round(onSqlite / 3)));
}
