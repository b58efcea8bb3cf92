import type { Automation, AutomationRunStatus, AutomationTrigger, AutomationType } from '../api/automations';

// What an automation's fields mean, in the words the console uses for them (docs/automations.md).

export const TYPES: { value: AutomationType; label: string; description: string }[] = [
  { value: 'copy_file', label: 'Copy files', description: 'Copies the files it takes to each destination; the originals stay where they are.' },
  { value: 'move_file', label: 'Move files', description: 'Moves the files it takes to the destination; they leave the folder they were in.' },
  { value: 'delete_file', label: 'Delete files', description: 'Deletes the files it takes, for example old ones a retention rule should not keep.' },
  { value: 'create_folder', label: 'Create folders', description: 'Creates a folder at each destination, for example one per month with the date tokens.' },
  { value: 'import_file', label: 'Import files from URLs', description: 'Downloads each URL given below into the destination folder.' },
];

export const TRIGGERS: { value: AutomationTrigger; label: string; description: string }[] = [
  { value: 'action', label: 'When files change', description: 'Runs for each file an action happens to in its folder: uploaded, copied, moved, deleted…' },
  { value: 'daily', label: 'On a calendar', description: 'Runs at fixed times every day, week, month, quarter or year.' },
  { value: 'custom_schedule', label: 'On chosen weekdays and times', description: 'Runs on the days of the week and at the times you list.' },
  { value: 'webhook', label: 'When a URL is called', description: 'Runs when a program calls its secret webhook URL, shown once after saving.' },
  { value: 'manual', label: 'Only when run by hand', description: 'Runs only when an administrator presses Run now (or a program asks the API).' },
];

/** The file actions an `action` trigger can follow, as a past participle ("when a file is …"). */
export const TRIGGER_ACTIONS: { value: string; label: string; happened: string }[] = [
  { value: 'create', label: 'Uploaded or created', happened: 'created' },
  { value: 'update', label: 'Changed', happened: 'changed' },
  { value: 'copy', label: 'Copied in', happened: 'copied' },
  { value: 'move', label: 'Moved in', happened: 'moved' },
  { value: 'read', label: 'Downloaded', happened: 'downloaded' },
  { value: 'archived_delete', label: 'Deleted (kept in the trash)', happened: 'deleted to the trash' },
  { value: 'destroy', label: 'Deleted for good', happened: 'deleted' },
];

export const INTERVALS: { value: string; label: string; days: string }[] = [
  { value: 'day', label: 'Every day', days: '' },
  { value: 'week', label: 'Every week', days: 'Days of the week: 0 is Sunday, 6 Saturday. Empty: Sunday.' },
  { value: 'week_end', label: 'Every week, counted from its end', days: '1 is Saturday (the last day), 2 Friday… Empty: Saturday.' },
  { value: 'month', label: 'Every month', days: 'Days of the month, 1 to 31; a shorter month runs on its last day. Empty: the 1st.' },
  { value: 'month_end', label: 'Every month, counted from its end', days: '1 is the last day of the month, 2 the day before… Empty: the last day.' },
  { value: 'quarter', label: 'Every quarter', days: 'Days of the quarter, 1 to 92. Empty: its first day.' },
  { value: 'quarter_end', label: 'Every quarter, counted from its end', days: '1 is the last day of the quarter. Empty: the last day.' },
  { value: 'year', label: 'Every year', days: 'Days of the year, 1 to 366. Empty: January 1.' },
  { value: 'year_end', label: 'Every year, counted from its end', days: '1 is December 31. Empty: December 31.' },
];

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Glob rules, for the help beside path, source and exclude pattern. */
export const GLOB_RULES: [string, string][] = [
  ['*', 'any characters within one folder or name, never a /'],
  ['**', 'any number of folders, none included: in/**/*.csv takes in/a.csv and in/x/y/a.csv'],
  ['?', 'exactly one character'],
  ['[abc], [a-z]', 'one character of the set or range; [!abc] one not in it'],
  ['{a,b}', 'either alternative: {in,out}/*.pdf'],
  ['\\', 'takes the next character literally: \\*'],
];

/** Destination tokens, each with an example, for the help beside destinations. */
export const DESTINATION_TOKENS: [string, string, string][] = [
  ['%tp', 'the path of the file that triggered the run (trigger “when files change” only)', 'inbox/q1/report.pdf'],
  ['%tf', 'its name', 'report.pdf'],
  ['%td', 'its folder', 'inbox/q1'],
  ['%tb', 'its name without extension', 'report'],
  ['%te', 'its extension', 'pdf'],
  ['%p1, %p2, …', 'the source file’s folders, from its own upwards', '%p1 of inbox/q1/report.pdf is q1'],
  ['%P1, %P2, …', 'the source file’s folders, from the top', '%P1 of inbox/q1/report.pdf is inbox'],
  ['%Ff', 'the source file’s name', 'Report Q1.PDF'],
  ['%Fb', 'its name without extension', 'Report Q1'],
  ['%Fe', 'its extension', 'PDF'],
  ['%Fl', 'its name in lowercase', 'report q1.pdf'],
  ['%Fn', 'its name with only letters and digits', 'ReportQ1.PDF'],
  ['%Fp', 'its name without accents, spaces or other symbols, lowercase', 'reportq1.pdf'],
  ['%Y', 'the year of the run', '2026'],
  ['%m', 'its month', '03'],
  ['%B', 'its month’s name', 'March'],
  ['%d', 'its day', '07'],
  ['%H', 'its hour (24-hour)', '14'],
  ['%M', 'its minute', '05'],
  ['%S', 'its second', '09'],
  ['%z', 'the offset from UTC', '+0100'],
  ['%%', 'a percent sign', '%'],
];

const TYPE_VERBS: Record<AutomationType, string> = {
  copy_file: 'Copies',
  move_file: 'Moves',
  delete_file: 'Deletes',
  create_folder: 'Creates folders',
  import_file: 'Imports',
};

/** The files an automation takes, in words: its folder glob with its source and what it leaves out. */
function takenFiles(automation: Automation): string {
  const folder = automation.path ?? '';
  const source = automation.source ?? '';
  const from = source === '' ? (folder === '' ? 'the top folder' : folder) : folder === '' ? source : `${folder}/${source}`;
  const except = automation.exclude_pattern === null || automation.exclude_pattern === '' ? '' : `, except ${automation.exclude_pattern}`;
  return `${from}${except}`;
}

const listed = (items: readonly string[], last = 'and') => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1] ?? ''}`);

/** What the automation does, in one sentence: "Copies files from inbox/* to archive/%Y/". */
export function whatItDoes(automation: Automation): string {
  const to = automation.destinations.length === 0 ? '' : ` to ${listed(automation.destinations)}`;
  switch (automation.automation) {
    case 'copy_file':
    case 'move_file':
      return `${TYPE_VERBS[automation.automation]} files from ${takenFiles(automation)}${to}`;
    case 'delete_file':
      return `Deletes files in ${takenFiles(automation)}`;
    case 'create_folder':
      return automation.destinations.length === 0 ? 'Creates folders (no destination yet)' : `Creates the folder${automation.destinations.length === 1 ? '' : 's'} ${listed(automation.destinations)}`;
    case 'import_file': {
      const count = automation.import_urls.length;
      return `Imports ${count} URL${count === 1 ? '' : 's'}${automation.destinations.length === 0 ? '' : ` into ${listed(automation.destinations)}`}`;
    }
    default:
      return String(automation.automation);
  }
}

/** When the automation runs, in one sentence. */
export function triggerInWords(automation: Automation): string {
  switch (automation.trigger) {
    case 'action': {
      const happened = automation.trigger_actions.map((action) => TRIGGER_ACTIONS.find((a) => a.value === action)?.happened ?? action);
      const where = automation.path === null || automation.path === '' ? 'the Workspace' : automation.path;
      return `When a file is ${listed(happened, 'or')} in ${where}`;
    }
    case 'daily':
    case 'custom_schedule':
      return automation.human_readable_schedule ?? 'On a schedule';
    case 'webhook':
      return 'When its webhook URL is called';
    case 'manual':
      return 'Only when run by hand';
    default:
      return String(automation.trigger);
  }
}

/** A run's status in words, and the colour of its badge. */
export const RUN_STATUS: Record<AutomationRunStatus, { label: string; color: string }> = {
  // Shades whose white text has at least a 4.5:1 contrast ratio: the theme's default shades do
  // not, nor do green.9 (4.4:1) and orange.9 (4.3:1), so success is teal.9 (5.0:1) and a partial
  // failure a colour of its own from the dark end: the red of failure is 5.5:1.
  queued: { label: 'queued', color: 'gray.7' },
  running: { label: 'running', color: 'blue.9' },
  success: { label: 'success', color: 'teal.9' },
  partial_failure: { label: 'partial failure', color: 'grape.9' },
  failure: { label: 'failure', color: 'red.9' },
  skipped: { label: 'skipped', color: 'gray.7' },
  canceled: { label: 'canceled', color: 'dark.6' },
};
