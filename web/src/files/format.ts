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

/** The permission letters in a fixed order, with a dash for each one missing (`lr--`). */
export function permissionLetters(letters: string): string {
  return ['l', 'r', 'w', 'd'].map((letter) => (letters.includes(letter) ? letter : '-')).join('');
}
