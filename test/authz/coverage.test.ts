import { describe, expect, it } from 'vitest';
import { coverageOf } from '../../src/authz/index.js';
import type { Coverage, EntryType } from '../../src/authz/index.js';

describe('coverage (contract 5.2)', () => {
  const table: { grantPath: string; recursive: boolean; target: string; type: EntryType; expected: Coverage }[] = [
    // The grant's own path, whatever its type.
    { grantPath: 'a', recursive: false, target: 'a', type: 'directory', expected: 'covers' },
    { grantPath: 'a', recursive: false, target: 'a', type: 'file', expected: 'covers' },
    { grantPath: '', recursive: false, target: '', type: 'directory', expected: 'covers' },
    // Files directly in the folder, recursive or not.
    { grantPath: 'a', recursive: false, target: 'a/f', type: 'file', expected: 'covers' },
    { grantPath: '', recursive: false, target: 'f', type: 'file', expected: 'covers' },
    // A subfolder, or anything deeper, only with recursive.
    { grantPath: 'a', recursive: false, target: 'a/d', type: 'directory', expected: 'not_recursive' },
    { grantPath: 'a', recursive: false, target: 'a/d/f', type: 'file', expected: 'not_recursive' },
    { grantPath: '', recursive: false, target: 'd', type: 'directory', expected: 'not_recursive' },
    { grantPath: 'a', recursive: true, target: 'a/d', type: 'directory', expected: 'covers' },
    { grantPath: 'a', recursive: true, target: 'a/d/e/f', type: 'file', expected: 'covers' },
    { grantPath: '', recursive: true, target: '_/workspaces/1/x', type: 'file', expected: 'covers' },
    // Never upward, sideways, or across a shared string prefix.
    { grantPath: 'a/b', recursive: true, target: 'a', type: 'directory', expected: 'unrelated' },
    { grantPath: 'a', recursive: true, target: 'ab', type: 'file', expected: 'unrelated' },
    { grantPath: 'a', recursive: true, target: 'ab/c', type: 'file', expected: 'unrelated' },
    { grantPath: 'a/b', recursive: true, target: 'a/c', type: 'file', expected: 'unrelated' },
  ];

  it.each(table)(
    'grant on $grantPath (recursive $recursive) vs $type $target: $expected',
    ({ grantPath, recursive, target, type, expected }) => {
      expect(coverageOf({ pathKey: grantPath, recursive }, { pathKey: target, type })).toBe(expected);
    },
  );
});
