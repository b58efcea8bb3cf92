/** A unique index refused a row (SQLite, or PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A foreign key refused a row: what it points at is gone (SQLite, or PostgreSQL's 23503). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Runs a write whose rule a unique index holds (a name taken, a row already there), answering
 * `refusal()` when the index refuses it: the request that lost a race to another is answered as if
 * it had come after it, never with the database's error.
 */
export function refusingDuplicates<T>(write: () => Promise<T>, refusal: () => Error): Promise<T> {
  return refusingWhen(isUniqueViolation, write, refusal);
}

/**
 * Runs a write that a foreign key may refuse, answering `refusal()` when it does: a row it refers
 * to (a group to join, a grantee) was deleted since it was found, or a row it deletes (a Workspace)
 * has gained something referring to it since it was checked. Another request came in between, and
 * this one is answered as if it had come after that one.
 */
export function refusingBrokenReferences<T>(write: () => Promise<T>, refusal: () => Error): Promise<T> {
  return refusingWhen(isForeignKeyViolation, write, refusal);
}

async function refusingWhen<T>(refused: (error: unknown) => boolean, write: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (refused(error)) throw refusal();
    throw error;
  }
}
