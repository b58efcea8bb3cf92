import { AtriumError } from '../../errors/atrium-error.js';
import { errors } from '../../errors/catalogue.js';
import { statusForType } from '../error-status.js';

/**
 * Every error `type` the catalogue can answer with, grouped by HTTP status, read from the catalogue
 * itself so the document never lists a type the server does not send or misses one it does.
 */
export function errorTypesByStatus(): Map<number, string[]> {
  const types = new Set<string>(['internal-server-error']);
  for (const make of Object.values(errors) as ((...args: unknown[]) => unknown)[]) {
    // The constructors only format their arguments into the message; placeholders are enough.
    const made = make({}, {}, {});
    if (made instanceof AtriumError) types.add(made.type);
  }
  const byStatus = new Map<number, string[]>();
  for (const type of [...types].sort()) {
    const status = statusForType(type);
    byStatus.set(status, [...(byStatus.get(status) ?? []), type]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}
