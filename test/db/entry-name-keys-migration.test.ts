import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { entriesBelow, nameKeys } from '../../src/repositories/entry-name-search.js';
import { testDatabaseTargets } from '../support/databases.js';
import { freshDatabase, migrateTo } from './migrate-to.js';

const ANY = { nameLike: [], type: undefined, modifiedAfter: undefined } as const;

/**
 * Names whose characters the keys of PostgreSQL's name index (migration 036) must take as they
 * are: beyond the Basic Multilingual Plane, combining and wide characters, spaces, LIKE's own
 * characters, a backslash, and a third segment holding `&` and `\` (which the index's expression
 * writes into a regular expression's replacement).
 */
const NAMES = ['Report 😀 final.txt', 'e\u0301té 東京データ.csv', '100%_done\\final.txt', 'ab', 'abc', 'x y', 'a&b\\1 memo.md'];
const FOLDER = '_/workspaces/7/a&b\\1/deep';

describe.each(testDatabaseTargets())('migration 036, the name index of each Workspace [$name]', (target) => {
  const fresh = freshDatabase(target);

  it('finds the entries stored before it, by every part of their names, below the Workspace and from the root', async () => {
    const database = fresh();
    await migrateTo(database, '034-entry-names-by-workspace');
    await sql`insert into entries (path, path_key, parent_key, type, size, storage_key, created_at, mtime) values
      ('_', '_', '', 'directory', null, null, 1, 1),
      ('_/workspaces', '_/workspaces', '_', 'directory', null, null, 1, 1),
      ('_/workspaces/7', '_/workspaces/7', '_/workspaces', 'directory', null, null, 1, 1),
      ('_/workspaces/7/a&b\\1', '_/workspaces/7/a&b\\1', '_/workspaces/7', 'directory', null, null, 1, 1),
      (${FOLDER}, ${FOLDER}, '_/workspaces/7/a&b\\1', 'directory', null, null, 1, 1)`.execute(database.db);
    for (const name of NAMES) {
      const path = `${FOLDER}/${name}`;
      const key = path.toLowerCase();
      await sql`insert into entries (path, path_key, parent_key, type, size, storage_key, created_at, mtime)
        values (${path}, ${key}, ${FOLDER}, 'file', 1, 'k', 1, 2)`.execute(database.db);
    }
    await migrateToLatest(database);
    for (const name of NAMES) {
      const key = name.toLowerCase();
      const characters = Array.from(key);
      for (let from = 0; from + 3 <= characters.length; from += 1) {
        for (let to = from + 3; to <= characters.length; to += 1) {
          const text = characters.slice(from, to).join('');
          for (const root of ['_/workspaces/7', FOLDER, '']) {
            const found = await entriesBelow(database.db, root, { after: undefined, until: undefined, limit: 20, conditions: { contains: text, ...ANY } });
            expect(found.map((entry) => entry.path), `${JSON.stringify(text)} below ${JSON.stringify(root)}`).toContain(`${FOLDER}/${name}`);
          }
        }
      }
    }
    // Page by page from a position, with a pattern too: the same entries in the same order.
    const all = await entriesBelow(database.db, '_/workspaces/7', { after: undefined, until: undefined, limit: 20, conditions: { ...ANY, contains: 'fin', nameLike: ['%.txt'] } });
    expect(all.map((entry) => entry.path)).toEqual([`${FOLDER}/100%_done\\final.txt`, `${FOLDER}/Report 😀 final.txt`]);
    const paged: string[] = [];
    let after: { parentKey: string; type: 'file' | 'directory'; pathKey: string } | undefined;
    for (let page = 0; page < 5; page += 1) {
      const rows = await entriesBelow(database.db, '_/workspaces/7', { after, until: undefined, limit: 1, conditions: { ...ANY, contains: 'fin', nameLike: ['%.txt'] } });
      if (rows.length === 0) break;
      const row = rows[0] as (typeof rows)[number];
      paged.push(row.path);
      after = { parentKey: row.parentKey, type: row.type, pathKey: row.pathKey };
    }
    expect(paged).toEqual(all.map((entry) => entry.path));
  });
});

describe('the name index keys of a search text', () => {
  it('are the segment and each of its runs of three characters, counted by code point', () => {
    expect(nameKeys('abcd', '12')).toEqual(['12:abc', '12:bcd']);
    expect(nameKeys('a😀bc', '1')).toEqual(['1:a😀b', '1:😀bc']);
    expect(nameKeys('aaaaa', 'a&b\\1')).toEqual(['a&b\\1:aaa']);
    expect(nameKeys('ab', '1')).toEqual([]);
  });
});
