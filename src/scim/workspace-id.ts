import { recordIdOf } from '../lib/record-id.js';
import { scimErrors } from './scim-error.js';

/**
 * The Atrium extension's `workspace_id` of a user or a group, as a number or a string of digits;
 * absent (undefined or null) when not sent. Anything that is no id is `400 invalidValue`.
 */
export function workspaceIdOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const id = recordIdOf(value);
  if (id === undefined) throw scimErrors.invalidValue('"workspace_id" must be a Workspace id.');
  return id;
}
