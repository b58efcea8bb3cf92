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
