import { describe, expect, it } from 'vitest';
import {
  automationTakesFile,
  compileFileGlobs,
  globFixedPrefix,
  parsePathGlob,
  pathGlobMatches,
  type AutomationFileGlobs,
} from '../../src/automations/index.js';

function matches(pattern: string, path: string): boolean {
  const parsed = parsePathGlob(pattern);
  if (!parsed.ok) throw new Error(`${pattern}: ${parsed.problem}`);
  return pathGlobMatches(parsed.glob, path);
}

describe('path globs', () => {
  it.each([
    // pattern, path, matches
    ['inbox', 'inbox', true],
    ['inbox', 'Inbox', true],
    ['INBOX/*.CSV', 'inbox/report.csv', true],
    ['inbox', 'inbox/sub', false],
    ['inbox/*', 'inbox/a.txt', true],
    ['inbox/*', 'inbox/sub/a.txt', false],
    ['inbox/*', 'inbox', false],
    ['inbox/**', 'inbox', true],
    ['inbox/**', 'inbox/a/b/c.txt', true],
    ['inbox/**/*.txt', 'inbox/a.txt', true],
    ['inbox/**/*.txt', 'inbox/x/y/a.txt', true],
    ['inbox/**/*.txt', 'inbox/x/y/a.csv', false],
    ['**/done', 'a/b/done', true],
    ['**/done', 'done', true],
    ['**/done', 'a/done/x', false],
    ['a/**/b/**/c', 'a/x/b/y/z/c', true],
    ['a/**/b/**/c', 'a/x/y/z/c', false],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
    ['file[0-9].txt', 'file7.txt', true],
    ['file[^0-9].txt', 'file7.txt', false],
    ['file[!0-9].txt', 'fileA.txt', true],
    ['*.{csv,txt}', 'a.txt', true],
    ['*.{csv,txt}', 'a.CSV', true],
    ['*.{csv,txt}', 'a.pdf', false],
    ['{in,out}/{a,b{1,2}}', 'out/b2', true],
    ['{in,out}/{a,b{1,2}}', 'out/b3', false],
    ['{in/x,out}/*', 'in/x/f', true],
    ['{in/x,out}/*', 'in/f', false],
    ['lit\\*eral', 'lit*eral', true],
    ['lit\\*eral', 'litXeral', false],
    ['a\\{b\\}', 'a{b}', true],
    ['Ünïcode/*', 'ünïcode/x', true],
    ['a*b', 'a/b', false],
  ] as const)('%s against %s: %s', (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });

  it.each([
    ['a/{b,c', 'has a { without its closing }'],
    ['a/b}', 'has a } without its opening {'],
    ['a/[bc', 'has a [ without its closing ]'],
    ['x\\', 'ends with a lone \\'],
    ['{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}', 'expand to more than 256 alternatives'],
  ])('refuses %s', (pattern, problem) => {
    const parsed = parsePathGlob(pattern);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toContain(problem);
  });
});

describe('fixed prefix of a glob', () => {
  it.each([
    ['reports/2024/*.csv', true, 'reports/2024'],
    ['reports/2024', true, 'reports/2024'],
    ['reports/2024', false, 'reports'],
    ['in/{a,b}/x', true, 'in'],
    ['in/ab?/x', true, 'in'],
    ['in/[ab]/x', true, 'in'],
    ['**/x', true, ''],
    ['*', true, ''],
    ['a\\*b/c/*', true, 'a*b/c'],
    ['/lead/trail/', true, 'lead/trail'],
  ] as const)('%s (whole is a folder: %s) gives %s', (pattern, wholeIsFolder, prefix) => {
    expect(globFixedPrefix(pattern, wholeIsFolder)).toBe(prefix);
  });
});

describe('the files an automation takes', () => {
  it.each<[AutomationFileGlobs, string, boolean]>([
    [{ path: 'inbox' }, 'inbox/a.txt', true],
    [{ path: 'inbox' }, 'inbox/sub/a.txt', false],
    [{ path: 'inbox', source: '*.csv' }, 'inbox/a.csv', true],
    [{ path: 'inbox', source: '*.csv' }, 'inbox/a.txt', false],
    [{ path: 'inbox', source: '**/*.csv' }, 'inbox/x/y/a.csv', true],
    [{ path: 'clients/*/upload', source: '*' }, 'clients/acme/upload/f.pdf', true],
    [{ path: 'clients/*/upload', source: '*' }, 'clients/acme/other/f.pdf', false],
    [{ path: 'inbox', exclude_pattern: '*.tmp' }, 'inbox/a.tmp', false],
    [{ path: 'inbox', exclude_pattern: '*.tmp' }, 'inbox/a.TMP', false],
    [{ path: 'inbox', source: '**', exclude_pattern: '**/drafts/**' }, 'inbox/drafts/a.txt', false],
    [{ path: 'inbox', source: '**', exclude_pattern: '**/drafts/**' }, 'inbox/final/a.txt', true],
    [{ source: '*.log' }, 'a.log', true],
    [{ path: '/inbox/', source: '*.log' }, 'inbox/a.log', true],
  ])('%j takes %s: %s', (globs, file, expected) => {
    const compiled = compileFileGlobs(globs);
    if (!compiled.ok) throw new Error(compiled.problem);
    expect(automationTakesFile(compiled.globs, file)).toBe(expected);
  });

  it('gives the folder every file it takes lies in', () => {
    const compiled = compileFileGlobs({ path: 'clients/acme/in', source: '**/*.pdf' });
    expect(compiled.ok && compiled.globs.folder).toBe('clients/acme/in');
  });

  it.each<[AutomationFileGlobs, string]>([
    [{ path: 'a/{b' }, 'path'],
    [{ path: 'a', source: '[x' }, 'source'],
    [{ path: 'a', exclude_pattern: 'b}' }, 'exclude_pattern'],
  ])('names the field of a bad glob: %j', (globs, field) => {
    const compiled = compileFileGlobs(globs);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.field).toBe(field);
  });
});
