// Automations: work on a Workspace's files run on a trigger, and the record of their runs
// (docs/automations.md). The only entrance to the feature.

export {
  type Automation, type AutomationFilter, type AutomationSettings, type AutomationSortField, automationSortValue, type ImportUrl,
} from '../repositories/automations.js';
export { AUTOMATION_RUN_STATUSES, type AutomationRun, type AutomationRunFilter, type AutomationRunSortField, automationRunSortValue } from '../repositories/automation-runs.js';
export { automationNextRunTimes, automationScheduleInWords } from './automation-fields.js';
export { ActionTriggers, MAX_ACTION_TRIGGER_DEPTH } from './action-triggers.js';
export { ActionWatchIndex, actionWatchOf, type ActionWatch, type FileAction, watchTakes } from './action-watch-index.js';
export { AUTOMATION_RUN_JOB, automationRunCounts, getAutomationRun, getAutomationRunLog, listRunsOfAutomation, queueAutomationRun, runAutomationManually } from './automation-runs.js';
export { type AutomationRunCause, depthOfCause, parseRunCause } from './run-cause.js';
export { MASKED_SECRET, webhookPath } from './automation-webhook.js';
export { callAutomationWebhook, type WebhookCall } from './webhook-calls.js';
export { registerAutomationWork } from './automation-work.js';
export { type AutomationWorkDeps, type ImportFetch } from './run-automation.js';
export { openImport } from './import-fetch.js';
export { queueDueScheduledRuns } from './schedule-queue.js';
export { type AutomationInput, type AutomationView, createAutomation, deleteAutomation, getAutomation, listAutomations, updateAutomation } from './automations.js';

// The pure rules an automation is read and run by.
export {
  MAX_GLOB_ALTERNATIVES,
  automationTakesFile,
  compileFileGlobs,
  globFixedPrefix,
  parsePathGlob,
  pathGlobMatches,
  type AutomationFileGlobs,
  type CompiledFileGlobs,
  type FileGlobsParse,
  type PathGlob,
  type PathGlobParse,
} from './globs.js';
export { RAILS_TIME_ZONES, ianaTimeZone, isIanaTimeZone, lookUpTimeZone, type TimeZoneLookup } from './time-zones.js';
export {
  MAX_WEBHOOK_PARAMS_LENGTH,
  MAX_WEBHOOK_PARAM_LENGTH,
  destinationFixedPrefix,
  expandDestination,
  parseDestination,
  webhookParamsProblem,
  type DestinationContext,
  type DestinationParse,
  type DestinationPrefix,
  type ParsedDestination,
} from './tokens.js';
export { instantOfWallClock, offsetAt, offsetText, wallClockAt, type WallClock } from './zoned-time.js';
export {
  SCHEDULE_INTERVALS,
  dueTimesBetween,
  humanReadableSchedule,
  nextDueTimes,
  scheduleProblems,
  type AutomationSchedule,
  type ScheduleInterval,
} from './schedule.js';
