import type { Level } from '../api/permissions';

// A permission level and a capability as a person reads them, where one is chosen or shown
// (docs/permissions.md has the exact rules). The API's own names stay in the API.

/** Each level's name on screen, and what it lets its holder do, in one line. */
export const LEVEL_WORDS: Readonly<Record<Level, { name: string; description: string }>> = {
  full: { name: 'Full access', description: 'See, download and upload; delete, move, rename and overwrite' },
  readonly: { name: 'View and download', description: 'See the files and folders and download them; change nothing' },
  writeonly: { name: 'Upload only', description: 'Upload new files and make folders, without seeing what is there' },
  list: { name: 'See names only', description: 'See which files and folders there are, without opening them' },
  admin: { name: 'Folder Admin', description: 'Full access, and give or remove permissions here (on the Workspace root: its administrator)' },
  history: { name: 'See history', description: 'See the files and folders and who did what with them' },
  bundle: { name: 'Share', description: 'See and download, and make share links to hand them out' },
};

export function levelName(level: string): string {
  return (LEVEL_WORDS as Record<string, { name: string } | undefined>)[level]?.name ?? level;
}

/** The choices of a level field: the name, with the line that says what it gives. */
export function levelOptions(levels: readonly Level[]): { value: string; label: string; description: string }[] {
  return levels.map((level) => ({ value: level, label: LEVEL_WORDS[level].name, description: LEVEL_WORDS[level].description }));
}

/** Each capability of an explanation (GET /permissions/explain), as a word and what it allows. */
export const CAPABILITY_WORDS: Readonly<Record<string, { name: string; description: string }>> = {
  list: { name: 'See', description: 'See the entry and, in a folder, what is in it' },
  read: { name: 'Download', description: 'Open and download files' },
  write: { name: 'Upload', description: 'Upload new files and make folders' },
  delete: { name: 'Delete and move', description: 'Delete, move, rename and overwrite' },
  history: { name: 'See history', description: 'See who did what here' },
  share: { name: 'Share', description: 'Make share links' },
  manage: { name: 'Manage permissions', description: 'Give and remove permissions here' },
};

export function capabilityWord(capability: string): { name: string; description: string } {
  return CAPABILITY_WORDS[capability] ?? { name: capability, description: capability };
}
