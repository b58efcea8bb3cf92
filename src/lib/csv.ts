// CSV (RFC 4180) for the exports auditors open in spreadsheets: a header row, CRLF line ends, a
// field quoted when it holds a comma, a double quote, CR or LF, with its double quotes doubled.
// Names and paths are chosen by users, so every text cell is also defused against spreadsheet
// formula injection (OWASP "CSV injection"): one starting with =, +, -, @, a tab or CR gets a
// leading apostrophe, which spreadsheets show as text and never evaluate.

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field: text defused against formulas, then quoted when RFC 4180 needs it; null is empty. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(fields: readonly (string | number | boolean | null)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}
