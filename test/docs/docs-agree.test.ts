import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config/settings.js';
import { matchesShownOutput, readGuide } from './guide-blocks.js';

/** README.md and every page in docs/, by repository path. */
function documents(): Map<string, string> {
  const pages = fs.readdirSync('docs').filter((name) => name.endsWith('.md')).map((name) => path.join('docs', name));
  return new Map(['README.md', ...pages].map((file) => [file, fs.readFileSync(file, 'utf8')]));
}

/** Variables the docs may name that are not server settings: the CLI's and the test suite's. */
const OTHER_VARIABLES = /^ATRIUM_(USER_PASSWORD|TEST_[A-Z_]+|TLS_)$/;

describe('the documentation stands alone and agrees with the code', () => {
  it('cites no document a user of Atrium does not have', () => {
    for (const [file, text] of documents()) {
      // test/files/contract/ is a folder of the repository, not a document.
      const prose = text.replaceAll('test/files/contract/', '');
      expect(prose, file).not.toMatch(/\bcontract\b/i);
      expect(prose, file).not.toMatch(/product document/i);
      expect(prose, file).not.toMatch(/wire[- ]notes/i);
      expect(prose, file).not.toMatch(/\.\.\/shared|shared\/(spec|seed)/);
    }
  });

  it('says where "context 0" and the like are explained wherever it uses them', () => {
    for (const [file, text] of documents()) {
      if (file === path.join('docs', 'getting-started.md') || !/\bcontext [0N]\b/.test(text)) continue;
      expect(text, `${file} uses "context 0" or "context N"`).toMatch(/getting-started\.md/);
    }
  });

  it('names only settings that exist, and the README table lists each with its flag and default', () => {
    const known = new Map(SETTINGS.map((setting) => [setting.env, setting]));
    for (const [file, text] of documents()) {
      for (const [name] of text.matchAll(/\bATRIUM_[A-Z_]+/g)) {
        if (!OTHER_VARIABLES.test(name)) expect(known.has(name), `${file} names ${name}`).toBe(true);
      }
    }
    const readme = documents().get('README.md') as string;
    const rows = [...readme.matchAll(/^\| `(ATRIUM_[A-Z_]+)` \| `--([a-z-]+)` \| ([^|]+) \|/gm)]
      .map(([, env, flag, defaultText]) => ({ env, flag, defaultText: (defaultText as string).trim().replaceAll('`', '') }));
    expect(rows.map((row) => row.env).sort()).toEqual([...known.keys()].sort());
    for (const row of rows) {
      const setting = known.get(row.env as string);
      expect({ env: row.env, flag: row.flag, defaultText: row.defaultText }).toEqual({ env: setting?.env, flag: setting?.flag, defaultText: setting?.defaultText });
    }
  });

  it('links only to files that exist', () => {
    for (const [file, text] of documents()) {
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target as string)) continue;
        expect(fs.existsSync(path.join(path.dirname(file), target as string)), `${file} links to ${target}`).toBe(true);
      }
      for (const [name] of text.matchAll(/\bdocs\/[a-z-]+\.md\b/g)) expect(fs.existsSync(name), `${file} names ${name}`).toBe(true);
    }
  });
});

describe('the guide reader (test/docs/guide-blocks.ts)', () => {
  it('refuses a command block that is neither run nor marked no-test', () => {
    expect(() => readGuide('```bash\nrm -rf data\n```\n')).toThrow(/neither run/);
    expect(() => readGuide('```sh later\nls\n```\n')).toThrow(/neither run/);
  });

  it('pairs each output block with the command block before it', () => {
    const guide = readGuide('```sh\necho hi\n```\n\n```text output\nhi\n```\n\n```sh no-test\nnpm start\n```\n\n```text output-of-start\nbanner\n```\n');
    expect(guide.runs).toEqual([{ language: 'sh', code: 'echo hi', output: 'hi', line: 1 }]);
    expect(guide.namedOutputs.get('start')).toBe('banner');
    expect(() => readGuide('```text output\nhi\n```\n')).toThrow(/without a command block/);
  });

  it('lets <placeholders> stand for any text within one line, and nothing else vary', () => {
    expect(matchesShownOutput('key: atr_<secret>', 'key: atr_abc-123')).toBe(true);
    expect(matchesShownOutput('key: atr_<secret>', 'key: atr_abc\nmore')).toBe(false);
    expect(matchesShownOutput('{"id":1}', '{"id":12}')).toBe(false);
    expect(matchesShownOutput('a.b', 'axb')).toBe(false);
  });
});
