/**
 * Shell-style patterns on one name (a single path segment), as a folder listing's `filter` takes
 * them: `*` any run of characters (none included), `?` exactly one character, `[abc]` one of a
 * set, `[a-z]` a range, `[!abc]` or `[^abc]` anything but, and `\` before any character to take it
 * literally (`\*`). Characters are Unicode code points. Matching is exact, character by character:
 * whoever compiles a pattern decides what text it is matched against (folder listings match path
 * keys, so case-insensitively).
 */

interface ClassItem {
  from: string;
  to: string;
}

type GlobToken =
  | { kind: 'char'; char: string }
  | { kind: 'one' }
  | { kind: 'many' }
  | { kind: 'set'; negated: boolean; items: readonly ClassItem[] };

export interface NameGlob {
  readonly tokens: readonly GlobToken[];
  /**
   * A LIKE pattern (escape character `\`) that every matching name also matches, for a database
   * to narrow its candidates with: `*` is `%`, `?` and a set are `_`. Exact when the pattern has no
   * set (`exactAsLike`); otherwise a name it admits is checked with globMatches.
   */
  readonly like: string;
  readonly exactAsLike: boolean;
}

/** What was wrong with a pattern, in words for the client. */
export type GlobParse = { ok: true; glob: NameGlob } | { ok: false; problem: string };

/** Escapes LIKE's own characters (`%`, `_`) and its escape character `\`, for a literal text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function parseNameGlob(pattern: string): GlobParse {
  const chars = Array.from(pattern);
  const tokens: GlobToken[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i] as string;
    if (c === '*') {
      // A run of stars means what one star means; keeping one keeps matching linear in the stars.
      if (tokens[tokens.length - 1]?.kind !== 'many') tokens.push({ kind: 'many' });
      i += 1;
    } else if (c === '?') {
      tokens.push({ kind: 'one' });
      i += 1;
    } else if (c === '\\') {
      const next = chars[i + 1];
      if (next === undefined) return { ok: false, problem: 'ends with a lone \\ (write \\\\ for a backslash)' };
      tokens.push({ kind: 'char', char: next });
      i += 2;
    } else if (c === '[') {
      const set = parseSet(chars, i);
      if (!set.ok) return set;
      tokens.push(set.token);
      i = set.end;
    } else {
      tokens.push({ kind: 'char', char: c });
      i += 1;
    }
  }
  let like = '';
  for (const token of tokens) {
    if (token.kind === 'char') like += escapeLike(token.char);
    else like += token.kind === 'many' ? '%' : '_';
  }
  return { ok: true, glob: { tokens, like, exactAsLike: tokens.every((token) => token.kind !== 'set') } };
}

const UNCLOSED = 'has a [ without its closing ] (write \\[ for a literal [)';

/**
 * `[...]` from `start` (its `[`): an optional `!` or `^`, then characters and ranges up to the
 * closing `]`. A `]` first in the set is one of its characters, as in shells, so a set is never
 * empty; `\` takes the next character literally.
 */
function parseSet(chars: readonly string[], start: number): { ok: true; token: GlobToken; end: number } | { ok: false; problem: string } {
  let i = start + 1;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i += 1;
  const items: ClassItem[] = [];
  const literalAt = (at: number): { char: string; next: number } | undefined => {
    const c = chars[at];
    if (c === undefined) return undefined;
    if (c !== '\\') return { char: c, next: at + 1 };
    const escaped = chars[at + 1];
    return escaped === undefined ? undefined : { char: escaped, next: at + 2 };
  };
  for (;;) {
    const c = chars[i];
    if (c === undefined) return { ok: false, problem: UNCLOSED };
    if (c === ']' && items.length > 0) return { ok: true, token: { kind: 'set', negated, items }, end: i + 1 };
    const from = literalAt(i);
    if (from === undefined) return { ok: false, problem: UNCLOSED };
    i = from.next;
    if (chars[i] === '-' && chars[i + 1] !== undefined && chars[i + 1] !== ']') {
      const to = literalAt(i + 1);
      if (to === undefined) return { ok: false, problem: UNCLOSED };
      if ((to.char.codePointAt(0) as number) < (from.char.codePointAt(0) as number)) {
        return { ok: false, problem: `has the range ${from.char}-${to.char}, whose end comes before its start` };
      }
      items.push({ from: from.char, to: to.char });
      i = to.next;
    } else {
      items.push({ from: from.char, to: from.char });
    }
  }
}

function admitsOne(token: GlobToken, char: string): boolean {
  switch (token.kind) {
    case 'char':
      return token.char === char;
    case 'one':
      return true;
    case 'set': {
      const point = char.codePointAt(0) as number;
      const inSet = token.items.some((item) => (item.from.codePointAt(0) as number) <= point && point <= (item.to.codePointAt(0) as number));
      return inSet !== token.negated;
    }
    case 'many':
      return false;
  }
}

/**
 * Whether the whole of `name` matches. Every token but `*` takes one character, so backtracking
 * to the last `*` alone is exact, and the cost is at most the name's length times the pattern's,
 * whatever the pattern: no pattern can make it run away, as a regular expression could.
 */
export function globMatches(glob: NameGlob, name: string): boolean {
  const chars = Array.from(name);
  const tokens = glob.tokens;
  let t = 0;
  let n = 0;
  let starToken = -1;
  let starFrom = 0;
  while (n < chars.length) {
    const token = tokens[t];
    if (token !== undefined && token.kind === 'many') {
      starToken = t;
      starFrom = n;
      t += 1;
    } else if (token !== undefined && admitsOne(token, chars[n] as string)) {
      t += 1;
      n += 1;
    } else if (starToken >= 0) {
      // The last `*` takes one more character, and the rest of the pattern starts again after it.
      t = starToken + 1;
      starFrom += 1;
      n = starFrom;
    } else {
      return false;
    }
  }
  while (tokens[t]?.kind === 'many') t += 1;
  return t === tokens.length;
}
