import { globMatches, parseNameGlob, type NameGlob } from '../lib/name-glob.js';
import { pathKey } from '../lib/paths.js';

/**
 * The globs of an automation's `path` (which folders), `source` (which files in them) and
 * `exclude_pattern` (which files to leave out). Within one segment they are the name globs of
 * folder listings (lib/name-glob.ts: `*`, `?`, `[...]` with `!` or `^` to negate, `\` to escape);
 * across segments a whole `**` segment stands for any number of folders (none included), and
 * `{a,b}` offers alternatives, nested as deep as wanted and free to hold `/`. Matching is
 * case-insensitive, as Atrium's path keys are: the pattern and the path are both compared by key.
 */

/** Alternatives a pattern may expand to: `{a,b}{c,d}...` multiplies, so a pattern cannot explode. */
export const MAX_GLOB_ALTERNATIVES = 256;

type Segment = { kind: 'any-depth' } | { kind: 'name'; glob: NameGlob };

export interface PathGlob {
  readonly pattern: string;
  /** One list of segments per alternative of the braces. */
  readonly alternatives: readonly (readonly Segment[])[];
}

export type PathGlobParse = { ok: true; glob: PathGlob } | { ok: false; problem: string };

/** Parses a glob over whole paths (segments joined by `/`, no leading or trailing `/` needed). */
export function parsePathGlob(pattern: string): PathGlobParse {
  const expanded = expandBraces(Array.from(pattern.normalize('NFC')));
  if (!expanded.ok) return expanded;
  const alternatives: Segment[][] = [];
  for (const alternative of expanded.texts) {
    const segments: Segment[] = [];
    for (const part of splitSegments(alternative)) {
      if (part === '') continue;
      if (part === '**') {
        if (segments[segments.length - 1]?.kind !== 'any-depth') segments.push({ kind: 'any-depth' });
        continue;
      }
      const parsed = parseNameGlob(pathKey(part));
      if (!parsed.ok) return { ok: false, problem: parsed.problem };
      segments.push({ kind: 'name', glob: parsed.glob });
    }
    alternatives.push(segments);
  }
  return { ok: true, glob: { pattern, alternatives } };
}

/** Whether the whole of `path` (a canonical path, segments joined by `/`) matches. */
export function pathGlobMatches(glob: PathGlob, path: string): boolean {
  const names = pathKey(path.normalize('NFC')).split('/').filter((name) => name !== '');
  return glob.alternatives.some((segments) => segmentsMatch(segments, names));
}

/**
 * Segment by segment, backtracking to the last `**` only: as for `*` within a name, that alone is
 * exact, and the cost stays at most the path's segments times the pattern's.
 */
function segmentsMatch(segments: readonly Segment[], names: readonly string[]): boolean {
  let s = 0;
  let n = 0;
  let starSegment = -1;
  let starFrom = 0;
  while (n < names.length) {
    const segment = segments[s];
    if (segment !== undefined && segment.kind === 'any-depth') {
      starSegment = s;
      starFrom = n;
      s += 1;
    } else if (segment !== undefined && globMatches(segment.glob, names[n] as string)) {
      s += 1;
      n += 1;
    } else if (starSegment >= 0) {
      s = starSegment + 1;
      starFrom += 1;
      n = starFrom;
    } else {
      return false;
    }
  }
  while (segments[s]?.kind === 'any-depth') s += 1;
  return s === segments.length;
}

/** Splits at every unescaped `/`: a name never holds one, so neither can a set. */
function splitSegments(chars: readonly string[]): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i] as string;
    if (c === '\\' && i + 1 < chars.length) {
      current += c + (chars[i + 1] as string);
      i += 1;
    } else if (c === '/') {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

type Expansion = { ok: true; texts: string[][] } | { ok: false; problem: string };

/**
 * Every text the braces of `chars` stand for. `\{`, `\}` and `\,` are literal and stay escaped
 * for the name glob; a `{` without its `}` is refused rather than guessed at.
 */
function expandBraces(chars: readonly string[]): Expansion {
  const open = findBraceOpen(chars);
  if (open === -1) {
    const stray = findUnescaped(chars, '}', 0);
    if (stray !== -1) return { ok: false, problem: 'has a } without its opening { (write \\} for a literal })' };
    return { ok: true, texts: [unescapeBraceCharacters(chars)] };
  }
  const close = findMatchingClose(chars, open);
  if (close === -1) return { ok: false, problem: 'has a { without its closing } (write \\{ for a literal {)' };
  const options = splitTopLevelCommas(chars.slice(open + 1, close));
  const before = chars.slice(0, open);
  const after = chars.slice(close + 1);
  const texts: string[][] = [];
  for (const option of options) {
    const expanded = expandBraces([...before, ...option, ...after]);
    if (!expanded.ok) return expanded;
    texts.push(...expanded.texts);
    if (texts.length > MAX_GLOB_ALTERNATIVES) {
      return { ok: false, problem: `has braces that expand to more than ${MAX_GLOB_ALTERNATIVES} alternatives` };
    }
  }
  return { ok: true, texts };
}

/** The first unescaped `c` from `from`, outside `[...]` sets; -1 if none. */
function findUnescaped(chars: readonly string[], c: string, from: number): number {
  let inSet = false;
  for (let i = from; i < chars.length; i += 1) {
    const here = chars[i];
    if (here === '\\') i += 1;
    else if (inSet) {
      if (here === ']') inSet = false;
    } else if (here === '[') {
      inSet = true;
      // A `]` (after an optional negation) first in a set is one of its characters.
      if (chars[i + 1] === '!' || chars[i + 1] === '^') i += 1;
      if (chars[i + 1] === ']') i += 1;
    } else if (here === c) return i;
  }
  return -1;
}

function findBraceOpen(chars: readonly string[]): number {
  return findUnescaped(chars, '{', 0);
}

function findMatchingClose(chars: readonly string[], open: number): number {
  let depth = 0;
  let i = open;
  for (;;) {
    const nextOpen = findUnescaped(chars, '{', i + 1);
    const nextClose = findUnescaped(chars, '}', i + 1);
    if (nextClose === -1) return -1;
    if (nextOpen !== -1 && nextOpen < nextClose) {
      depth += 1;
      i = nextOpen;
    } else if (depth === 0) {
      return nextClose;
    } else {
      depth -= 1;
      i = nextClose;
    }
  }
}

function splitTopLevelCommas(chars: readonly string[]): string[][] {
  const options: string[][] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i];
    if (c === '\\') i += 1;
    else if (c === '[') {
      const end = findUnescaped(chars, ']', i + 2);
      if (end !== -1) i = end;
    } else if (c === '{') depth += 1;
    else if (c === '}') depth -= 1;
    else if (c === ',' && depth === 0) {
      options.push(chars.slice(start, i) as string[]);
      start = i + 1;
    }
  }
  options.push(chars.slice(start) as string[]);
  return options;
}

/** `\{`, `\}` and `\,` are literal characters the name glob needs no escape for. */
function unescapeBraceCharacters(chars: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i] as string;
    const next = chars[i + 1];
    if (c === '\\' && (next === '{' || next === '}' || next === ',')) {
      out.push(next);
      i += 1;
    } else if (c === '\\' && next !== undefined) {
      out.push(c, next);
      i += 1;
    } else {
      out.push(c);
    }
  }
  return out;
}

const WILDCARDS = new Set(['*', '?', '[', '{']);

/**
 * The folders of a glob before its first wildcard, with escapes resolved: `reports/2024/*.csv`
 * gives `reports/2024`, `in/{a,b}/x` gives `in`, and a glob without wildcards gives its folders
 * (`path` being a folder glob, `a/b` gives `a/b`; pass `wholeIsFolder: false` for a file glob,
 * whose last segment is a name, to get `a`). Every path the glob matches lies in this folder,
 * which is what finding candidates and keeping an automation inside its Workspace rely on.
 */
export function globFixedPrefix(pattern: string, wholeIsFolder = true): string {
  const chars = Array.from(pattern.normalize('NFC'));
  const folders: string[] = [];
  let current = '';
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i] as string;
    if (c === '\\' && i + 1 < chars.length) {
      current += chars[i + 1] as string;
      i += 1;
    } else if (WILDCARDS.has(c)) {
      return folders.join('/');
    } else if (c === '/') {
      if (current !== '') folders.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  if (current !== '' && wholeIsFolder) folders.push(current);
  return folders.join('/');
}

/** What an automation matches files with: its `path`, `source` and `exclude_pattern`. */
export interface AutomationFileGlobs {
  path?: string | null;
  source?: string | null;
  exclude_pattern?: string | null;
}

export interface CompiledFileGlobs {
  /** `path` and `source` joined: the whole path of a file it takes. */
  readonly files: PathGlob;
  readonly exclude: PathGlob | undefined;
  /** Whether `exclude_pattern` has no `/`: then it is matched against the file's name alone. */
  readonly excludeByName: boolean;
  /** The folder every file it takes lies in (globFixedPrefix of the joined glob). */
  readonly folder: string;
}

export type FileGlobsParse = { ok: true; globs: CompiledFileGlobs } | { ok: false; field: 'path' | 'source' | 'exclude_pattern'; problem: string };

/**
 * Compiles an automation's globs. A file is taken when its whole path matches `path/source`; an
 * absent `path` is the Workspace's root folder and an absent `source` is `*` (the files directly
 * in the folders `path` matches). `exclude_pattern` then leaves out a file: matched against its
 * name when it has no `/` (`*.tmp`), else against its whole path (`**\/drafts/**`).
 */
export function compileFileGlobs(globs: AutomationFileGlobs): FileGlobsParse {
  const path = (globs.path ?? '').replace(/^\/+|\/+$/g, '');
  const source = (globs.source ?? '') === '' ? '*' : (globs.source as string).replace(/^\/+/, '');
  for (const [field, text] of [['path', path], ['source', source]] as const) {
    const parsed = parsePathGlob(text);
    if (!parsed.ok) return { ok: false, field, problem: parsed.problem };
  }
  const joined = path === '' ? source : `${path}/${source}`;
  const files = parsePathGlob(joined);
  if (!files.ok) return { ok: false, field: 'source', problem: files.problem };
  let exclude: PathGlob | undefined;
  const excludeText = globs.exclude_pattern ?? '';
  if (excludeText !== '') {
    const parsed = parsePathGlob(excludeText);
    if (!parsed.ok) return { ok: false, field: 'exclude_pattern', problem: parsed.problem };
    exclude = parsed.glob;
  }
  return {
    ok: true,
    globs: { files: files.glob, exclude, excludeByName: !excludeText.includes('/'), folder: globFixedPrefix(joined, false) },
  };
}

/** Whether an automation with these globs takes the file at `filePath` (a canonical path). */
export function automationTakesFile(globs: CompiledFileGlobs, filePath: string): boolean {
  if (!pathGlobMatches(globs.files, filePath)) return false;
  if (globs.exclude === undefined) return true;
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  return !pathGlobMatches(globs.exclude, globs.excludeByName ? name : filePath);
}
