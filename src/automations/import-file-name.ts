import { parse as parseContentDisposition } from 'content-disposition';

/** The name of a file imported when neither the answer nor the URL gives one. */
export const DEFAULT_IMPORT_FILE_NAME = 'import';

const MAX_NAME_BYTES = 255;
// C0 and C1 control characters and DEL (NUL among them): never part of a stored name.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The name an imported file is stored under: the server's Content-Disposition `filename` (its
 * `filename*` form first), else the URL path's last segment, decoded, else `import`. Whatever the
 * server or URL says, the answer is one plain name: only what follows the last `/` or `\` is kept,
 * control characters are dropped, and `.`, `..` or nothing at all fall back to the next source.
 */
export function importFileName(contentDisposition: string | undefined, url: URL): string {
  return plainName(dispositionName(contentDisposition))
    ?? plainName(lastPathSegment(url))
    ?? DEFAULT_IMPORT_FILE_NAME;
}

function dispositionName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    return parseContentDisposition(header).parameters.filename;
  } catch {
    // A malformed header names nothing; the URL still may.
    return undefined;
  }
}

function lastPathSegment(url: URL): string | undefined {
  const raw = url.pathname.split('/').pop();
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function plainName(candidate: string | undefined): string | undefined {
  if (candidate === undefined) return undefined;
  const last = candidate.split(/[/\\]/).pop() ?? '';
  const name = last.replace(CONTROL_CHARACTERS, '').normalize('NFC').trim();
  if (name === '' || name === '.' || name === '..') return undefined;
  return withinBytes(name, MAX_NAME_BYTES);
}

/** Cuts an over-long name at a character boundary, keeping a short extension such as `.csv`. */
function withinBytes(name: string, limit: number): string {
  if (Buffer.byteLength(name, 'utf8') <= limit) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let budget = limit - Buffer.byteLength(extension, 'utf8');
  let stem = '';
  for (const character of name.slice(0, name.length - extension.length)) {
    budget -= Buffer.byteLength(character, 'utf8');
    if (budget < 0) break;
    stem += character;
  }
  return stem + extension;
}
