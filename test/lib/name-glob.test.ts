import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatches, parseNameGlob, type NameGlob } from '../../src/lib/name-glob.js';

function glob(pattern: string): NameGlob {
  const parsed = parseNameGlob(pattern);
  if (!parsed.ok) throw new Error(`${pattern}: ${parsed.problem}`);
  return parsed.glob;
}

/**
 * The reference: the same language written as a regular expression, independently of the matcher.
 * Fine for the short patterns of a test; the server never builds one (it could run away).
 */
function referenceMatches(pattern: string, name: string): boolean {
  let source = '';
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i] as string;
    if (c === '*') source += '[^]*';
    else if (c === '?') source += '[^]';
    else if (c === '\\') source += escapeRegex(chars[(i += 1)] as string);
    else if (c === '[') {
      let j = i + 1;
      let set = '';
      if (chars[j] === '!' || chars[j] === '^') { set += '^'; j += 1; }
      let first = true;
      while (chars[j] !== ']' || first) {
        let from = chars[j] as string;
        if (from === '\\') from = chars[(j += 1)] as string;
        j += 1;
        if (chars[j] === '-' && chars[j + 1] !== undefined && chars[j + 1] !== ']') {
          let to = chars[j + 1] as string;
          j += 2;
          if (to === '\\') { to = chars[j] as string; j += 1; }
          set += `${escapeRegex(from)}-${escapeRegex(to)}`;
        } else set += escapeRegex(from);
        first = false;
      }
      source += `[${set}]`;
      i = j;
    } else source += escapeRegex(c);
  }
  return new RegExp(`^${source}$`, 'u').test(name);
}

/** Any character as a code point escape, which means itself inside and outside a set alike. */
function escapeRegex(char: string): string {
  return `\\u{${(char.codePointAt(0) as number).toString(16)}}`;
}

describe('name patterns (lib/name-glob.ts)', () => {
  it('reads *, ?, sets, ranges, negation and escapes', () => {
    expect(globMatches(glob('*.txt'), 'notes.txt')).toBe(true);
    expect(globMatches(glob('*.txt'), 'notes.txt.bak')).toBe(false);
    expect(globMatches(glob('*'), '')).toBe(true);
    expect(globMatches(glob('?'), 'é')).toBe(true);
    expect(globMatches(glob('?'), '😀')).toBe(true);
    expect(globMatches(glob('??'), '😀')).toBe(false);
    expect(globMatches(glob('report-[0-9][0-9].pdf'), 'report-07.pdf')).toBe(true);
    expect(globMatches(glob('report-[0-9][0-9].pdf'), 'report-7a.pdf')).toBe(false);
    expect(globMatches(glob('[abc]*'), 'beta')).toBe(true);
    expect(globMatches(glob('[!abc]*'), 'beta')).toBe(false);
    expect(globMatches(glob('[^abc]*'), 'delta')).toBe(true);
    expect(globMatches(glob('[]]'), ']')).toBe(true);
    expect(globMatches(glob('[a-]'), '-')).toBe(true);
    expect(globMatches(glob('a\\*'), 'a*')).toBe(true);
    expect(globMatches(glob('a\\*'), 'ab')).toBe(false);
    expect(globMatches(glob('a*b*c'), 'aXXbYYc')).toBe(true);
    expect(globMatches(glob('a*b*c'), 'aXXbYY')).toBe(false);
  });

  it('refuses what is not a pattern, saying why', () => {
    for (const [pattern, problem] of [['[abc', /closing \]/], ['a[', /closing \]/], ['[]', /closing \]/], ['x\\', /lone \\/], ['[z-a]', /z-a/]] as const) {
      const parsed = parseNameGlob(pattern);
      expect(parsed.ok, pattern).toBe(false);
      if (!parsed.ok) expect(parsed.problem, pattern).toMatch(problem);
    }
  });

  it('narrows for a database with a LIKE pattern, exact unless there is a set', () => {
    expect(glob('*.txt')).toMatchObject({ like: '%.txt', exactAsLike: true });
    expect(glob('a_b%?**c')).toMatchObject({ like: 'a\\_b\\%_%c', exactAsLike: true });
    expect(glob('[ab]\\\\')).toMatchObject({ like: '_\\\\', exactAsLike: false });
  });

  it('stays fast on patterns that make a backtracking regular expression run away', () => {
    const started = performance.now();
    expect(globMatches(glob(`${'*a'.repeat(200)}b`), 'a'.repeat(255))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('agrees with a regular expression of the same pattern on every name', () => {
    const char = fc.constantFrom('a', 'b', 'é', '😀', '.', '-', ']');
    const token = fc.oneof(
      char, fc.constant('*'), fc.constant('?'),
      // In a set, `-` between two characters makes a range: the set's own characters leave it out.
      fc.tuple(fc.boolean(), fc.array(fc.oneof(fc.constantFrom('a', 'b', 'é', '😀', '.', '\\]'), fc.tuple(fc.constantFrom('a', '.'), fc.constantFrom('b', 'é'))), { minLength: 1, maxLength: 3 }))
        .map(([negated, items]) => `[${negated ? '!' : ''}${items.map((item) => (typeof item === 'string' ? item : `${item[0]}-${item[1]}`)).join('')}]`),
      char.map((c) => `\\${c}`),
    );
    fc.assert(fc.property(fc.array(token, { maxLength: 6 }), fc.array(char, { maxLength: 6 }), (tokens, name) => {
      const pattern = tokens.join('');
      expect(globMatches(glob(pattern), name.join('')), `${pattern} on ${name.join('')}`).toBe(referenceMatches(pattern, name.join('')));
    }), { numRuns: 3_000 });
  });
});
