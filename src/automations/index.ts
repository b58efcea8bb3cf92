// What automations offer the rest of Atrium: the pure rules an automation is read and run by.
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
