import { InvalidArgumentError } from 'commander';
import { MAX_RECORD_ID, parseRecordId } from '../lib/record-id.js';

/** Commander parser for ids (Workspace ids): read by the rule every id is read by, 0 to the database's bound. */
export function idArgument(value: string): number {
  const id = parseRecordId(value);
  if (id === undefined) throw new InvalidArgumentError(`expected an id: a whole number from 0 to ${MAX_RECORD_ID}`);
  return id;
}
