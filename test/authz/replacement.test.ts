import { describe, expect, it } from 'vitest';
import { replacedGrantIds, sameGrantee } from '../../src/authz/index.js';
import type { Grant } from '../../src/authz/index.js';
import { grant, toAllOf, toGroup, toUser } from './fixtures.js';

describe('replacement on grant creation (contract 5.2)', () => {
  const rows: { name: string; created: Grant; existing: Grant; replaced: boolean }[] = [
    { name: 'same path, subset level', created: grant('a', toUser(1), 'full'), existing: grant('a', toUser(1), 'readonly'), replaced: true },
    { name: 'same path, equal grant', created: grant('a', toUser(1), 'list'), existing: grant('a', toUser(1), 'list'), replaced: true },
    { name: 'same path, superset level', created: grant('a', toUser(1), 'readonly'), existing: grant('a', toUser(1), 'full'), replaced: false },
    { name: 'same path, incomparable levels', created: grant('a', toUser(1), 'history'), existing: grant('a', toUser(1), 'readonly'), replaced: false },
    { name: 'bundle subsumes readonly', created: grant('a', toUser(1), 'bundle'), existing: grant('a', toUser(1), 'readonly'), replaced: true },
    { name: 'full does not subsume bundle', created: grant('a', toUser(1), 'full'), existing: grant('a', toUser(1), 'bundle'), replaced: false },
    { name: 'recursive new, descendant old', created: grant('a', toUser(1), 'admin', true), existing: grant('a/b/c', toUser(1), 'full', true), replaced: true },
    { name: 'recursive new, non-recursive descendant', created: grant('a', toUser(1), 'full', true), existing: grant('a/b', toUser(1), 'list', false), replaced: true },
    { name: 'non-recursive new, descendant old', created: grant('a', toUser(1), 'admin', false), existing: grant('a/b', toUser(1), 'list', false), replaced: false },
    { name: 'non-recursive new, recursive old on the same path', created: grant('a', toUser(1), 'admin', false), existing: grant('a', toUser(1), 'list', true), replaced: false },
    { name: 'non-recursive new, non-recursive old on the same path', created: grant('a', toUser(1), 'full', false), existing: grant('a', toUser(1), 'list', false), replaced: true },
    { name: 'recursive new, recursive old on the same path', created: grant('a', toUser(1), 'full', true), existing: grant('a', toUser(1), 'writeonly', true), replaced: true },
    { name: 'ancestor of the new path', created: grant('a/b', toUser(1), 'admin'), existing: grant('a', toUser(1), 'list'), replaced: false },
    { name: "string prefix is not a descendant ('a' vs 'ab')", created: grant('a', toUser(1), 'admin'), existing: grant('ab', toUser(1), 'list'), replaced: false },
    { name: 'site root covers every path', created: grant('', toUser(1), 'admin'), existing: grant('x/y', toUser(1), 'list'), replaced: true },
    { name: 'other user', created: grant('a', toUser(1), 'full'), existing: grant('a', toUser(2), 'list'), replaced: false },
    { name: 'user vs group', created: grant('a', toUser(1), 'full'), existing: grant('a', toGroup(1), 'list'), replaced: false },
    { name: 'same group', created: grant('a', toGroup(1), 'full'), existing: grant('a/b', toGroup(1), 'list'), replaced: true },
    { name: 'other group', created: grant('a', toGroup(1), 'full'), existing: grant('a', toGroup(2), 'list'), replaced: false },
    { name: 'same set of groups in another order', created: grant('a', toAllOf(1, 2), 'full'), existing: grant('a', toAllOf(2, 1), 'list'), replaced: true },
    { name: 'a larger set of groups is another grantee', created: grant('a', toAllOf(1, 2), 'full'), existing: grant('a', toAllOf(1, 2, 3), 'list'), replaced: false },
    { name: 'a smaller set of groups is another grantee', created: grant('a', toAllOf(1, 2, 3), 'full'), existing: grant('a', toAllOf(1, 2), 'list'), replaced: false },
    { name: 'ALL-of vs the single group', created: grant('a', toAllOf(1, 2), 'full'), existing: grant('a', toGroup(1), 'list'), replaced: false },
    {
      name: 'a subfolder admin grant is subsumed by the Workspace root grant',
      created: grant('_/workspaces/2', toUser(1), 'admin', true),
      existing: grant('_/workspaces/2/s', toUser(1), 'admin', true),
      replaced: true,
    },
    {
      name: 'a Workspace root grant is kept when the new grant is above the root (it would lose Workspace Administrator)',
      created: grant('_/workspaces', toUser(1), 'admin', true),
      existing: grant('_/workspaces/2', toUser(1), 'admin', true),
      replaced: false,
    },
    {
      name: 'a Workspace root grant is kept under a site-root admin grant',
      created: grant('', toGroup(4), 'admin', true),
      existing: grant('_/workspaces/2', toGroup(4), 'admin', true),
      replaced: false,
    },
    {
      name: 'an equal Workspace root grant is replaced',
      created: grant('_/workspaces/2', toGroup(4), 'admin', true),
      existing: grant('_/workspaces/2', toGroup(4), 'admin', true),
      replaced: true,
    },
  ];

  it.each(rows)('$name', ({ created, existing, replaced }) => {
    expect(replacedGrantIds(created, [existing])).toEqual(replaced ? [existing.id] : []);
  });

  it('never lists the new grant itself, and sorts ids', () => {
    const created = grant('a', toUser(1), 'admin', true, 5);
    const existing = [created, grant('a/c', toUser(1), 'list', true, 9), grant('a', toUser(1), 'full', false, 7)];
    expect(replacedGrantIds(created, existing)).toEqual([7, 9]);
  });

  it('compares ALL-of grantees as sets', () => {
    expect(sameGrantee(toAllOf(1, 2, 2), toAllOf(2, 1))).toBe(true);
    expect(sameGrantee(toAllOf(1, 2), toAllOf(1, 3))).toBe(false);
    expect(sameGrantee(toAllOf(1, 2), toAllOf(1, 2, 3))).toBe(false);
    expect(sameGrantee(toAllOf(1, 2, 3), toAllOf(1, 2))).toBe(false);
    expect(sameGrantee(toGroup(1), toAllOf(1))).toBe(false);
  });
});
