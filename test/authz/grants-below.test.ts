import { describe, expect, it } from 'vitest';
import { childNamesTowardGrants, hasGrantBelow } from '../../src/authz/index.js';
import { grant, subject, toAllOf, toGroup, toUser } from './fixtures.js';

describe('grants below a folder (visible on the way to a grant)', () => {
  const who = subject({ userId: 3, groups: [1] });
  const grants = [
    grant('a/b/c', toUser(3), 'readonly'),
    grant('a/x', toGroup(1), 'list', false),
    grant('a/y/z', toUser(4), 'full'),
    grant('a/w', toAllOf(1, 2), 'full'),
    grant('a', toUser(3), 'full'),
    grant('ab/q', toUser(3), 'full'),
  ];

  it.each([
    { folder: '', names: ['a', 'ab'] },
    { folder: 'a', names: ['b', 'x'] },
    { folder: 'a/b', names: ['c'] },
    { folder: 'a/b/c', names: [] },
    { folder: 'a/y', names: [] },
    { folder: 'ab', names: ['q'] },
  ])('under $folder: $names', ({ folder, names }) => {
    expect([...childNamesTowardGrants(who, folder, grants)].sort()).toEqual(names);
    expect(hasGrantBelow(who, folder, grants)).toBe(names.length > 0);
  });

  it("ignores other users' and unsatisfied ALL-of grants (they must not reveal a path)", () => {
    expect(hasGrantBelow(subject({ userId: 9 }), 'a', grants)).toBe(false);
  });
});
