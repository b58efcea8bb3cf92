// Steps of 1024, so the binary prefixes: a KiB is 1024 bytes, where a kB would be 1000.
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatSize(bytes: number | null): string {
  if (bytes === null) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeFormat.format(date);
}

/** What each permission letter lets the person do, in words, for a folder and for a file. */
const CAPABILITIES: { letter: string; word: string; folder: string; file: string }[] = [
  { letter: 'l', word: 'Browse', folder: 'see what is in it', file: 'see it' },
  { letter: 'r', word: 'Open', folder: 'open and download what is in it', file: 'open and download it' },
  { letter: 'w', word: 'Add', folder: 'add files and folders to it', file: 'replace its contents' },
  { letter: 'd', word: 'Delete', folder: 'delete, rename or move it', file: 'delete, rename or move it' },
];

/**
 * The person's own access to an entry, from the API's letters: short words for the table
 * (`Browse, open, add, delete`) and a sentence for the tooltip and screen readers.
 */
export function capabilityWords(letters: string, type: 'directory' | 'file'): { short: string; sentence: string } {
  const held = CAPABILITIES.filter((c) => letters.includes(c.letter) && (type === 'directory' || c.letter !== 'l' || letters.length === 1));
  if (held.length === 0) return { short: 'None', sentence: 'You may not do anything with it.' };
  const short = held.map((c, i) => (i === 0 ? c.word : c.word.toLowerCase())).join(', ');
  const what = held.map((c) => (type === 'directory' ? c.folder : c.file));
  const listed = what.length === 1 ? what[0] : `${what.slice(0, -1).join(', ')} and ${what[what.length - 1]}`;
  return { short, sentence: `You may ${listed}.` };
}
