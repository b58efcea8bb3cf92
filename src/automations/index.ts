// Automations: work on a Workspace's files run on a trigger, and the record of their runs
// (docs/automations.md). The only entrance to the feature.

export {
  type Automation, type AutomationFilter, type AutomationSettings, type AutomationSortField, automationSortValue, type ImportUrl,
} from '../repositories/automations.js';
export { AUTOMATION_RUN_STATUSES, type AutomationRun, type AutomationRunFilter, type AutomationRunSortField, automationRunSortValue } from '../repositories/automation-runs.js';
export { humanReadableSchedule } from './automation-fields.js';
export { AUTOMATION_RUN_JOB, getAutomationRun, getAutomationRunLog, listRunsOfAutomation, runAutomationManually } from './automation-runs.js';
export { MASKED_SECRET, webhookPath } from './automation-webhook.js';
export { type AutomationInput, type AutomationView, createAutomation, deleteAutomation, getAutomation, listAutomations, updateAutomation } from './automations.js';
