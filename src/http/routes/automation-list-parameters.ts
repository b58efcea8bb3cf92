import type { AutomationFilter, AutomationRunFilter } from '../../automations/index.js';
import { type ListParameterSpec, type ListParameters, timeRangeOf } from '../list-parameters.js';

/** GET /automations's list parameters, as the Files.com SDKs document them. */
export const AUTOMATION_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'automations',
  sortable: ['workspace_id', 'name', 'automation', 'last_modified_at', 'disabled'],
  equals: { disabled: 'boolean', last_modified_at: 'time', workspace_id: 'workspace', automation: 'text' },
  prefix: [],
  ranges: { last_modified_at: 'time' },
  notOffered: {},
};

export function automationFilterOf(parameters: ListParameters): AutomationFilter {
  const { equals } = parameters;
  const filter: AutomationFilter = {};
  if (equals.workspace_id !== undefined) filter.workspaceId = equals.workspace_id as number;
  if (equals.disabled !== undefined) filter.disabled = equals.disabled as boolean;
  if (equals.automation !== undefined) filter.automation = equals.automation as string;
  // filter[last_modified_at] is that second, as times go out without milliseconds.
  const lastModifiedAt = timeRangeOf(parameters, 'last_modified_at');
  if (lastModifiedAt !== undefined) filter.lastModifiedAt = lastModifiedAt;
  return filter;
}

/** GET /automation_runs's list parameters, as the Files.com SDKs document them. */
export const AUTOMATION_RUN_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'automation runs',
  sortable: ['automation_id', 'created_at', 'status'],
  equals: { status: 'text', workspace_id: 'workspace', automation_id: 'id' },
  prefix: [],
  ranges: {},
  notOffered: {},
};

/**
 * The filter of one automation's runs: `automation_id` names the automation; a
 * `filter[automation_id]` naming another one matches no run (undefined).
 */
export function automationRunFilterOf(automationId: number, parameters: ListParameters): AutomationRunFilter | undefined {
  const { equals } = parameters;
  if (equals.automation_id !== undefined && equals.automation_id !== automationId) return undefined;
  return {
    automationId,
    ...(equals.status === undefined ? {} : { status: equals.status as string }),
    ...(equals.workspace_id === undefined ? {} : { workspaceId: equals.workspace_id as number }),
  };
}
