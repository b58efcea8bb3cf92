import { describe, expect, it } from 'vitest';
import { can, decide } from '../../src/authz/index.js';
import type { Capability, Grant, Subject, Target } from '../../src/authz/index.js';
import { dir, file, grant, subject, toAllOf, toGroup, toUser } from './fixtures.js';

describe('capabilities: union of every matching grant that covers the path', () => {
  const rows: { name: string; who: Subject; grants: Grant[]; target: Target; capabilities: Capability[] }[] = [
    {
      name: 'no grant, no capability',
      who: subject(),
      grants: [],
      target: dir('a'),
      capabilities: [],
    },
    {
      name: 'a direct user grant',
      who: subject({ userId: 4 }),
      grants: [grant('a', toUser(4), 'readonly')],
      target: file('a/b'),
      capabilities: ['list', 'read'],
    },
    {
      name: "another user's grant gives nothing",
      who: subject({ userId: 4 }),
      grants: [grant('a', toUser(5), 'full')],
      target: file('a/b'),
      capabilities: [],
    },
    {
      name: 'union across several groups (product rule 9)',
      who: subject({ groups: [1, 2, 3] }),
      grants: [grant('a', toGroup(1), 'readonly'), grant('a/b', toGroup(2), 'writeonly'), grant('', toGroup(3), 'history')],
      target: dir('a/b'),
      capabilities: ['list', 'read', 'write', 'history'],
    },
    {
      name: 'union of direct and group grants',
      who: subject({ userId: 4, groups: [1] }),
      grants: [grant('a', toUser(4), 'bundle'), grant('a', toGroup(1), 'full')],
      target: file('a/x'),
      capabilities: ['list', 'read', 'write', 'delete', 'share'],
    },
    {
      name: 'ALL-of grant: member of every listed group',
      who: subject({ groups: [1, 2] }),
      grants: [grant('a', toAllOf(1, 2), 'full')],
      target: dir('a'),
      capabilities: ['list', 'read', 'write', 'delete'],
    },
    {
      name: 'ALL-of grant: member of one listed group only gets nothing (not several group grants)',
      who: subject({ groups: [1] }),
      grants: [grant('a', toAllOf(1, 2), 'full')],
      target: dir('a'),
      capabilities: [],
    },
    {
      name: 'ALL-of grant: member of the other listed group only gets nothing',
      who: subject({ groups: [2, 3] }),
      grants: [grant('a', toAllOf(1, 2), 'full')],
      target: dir('a'),
      capabilities: [],
    },
    {
      name: 'ALL-of grant with repeated ids needs each once',
      who: subject({ groups: [1] }),
      grants: [grant('a', toAllOf(1, 1), 'list')],
      target: dir('a'),
      capabilities: ['list'],
    },
    {
      name: 'ALL-of grant listing no group matches nobody',
      who: subject({ groups: [1, 2] }),
      grants: [grant('a', toAllOf(), 'admin')],
      target: dir('a'),
      capabilities: [],
    },
    {
      name: 'non-recursive grant: files directly in the folder',
      who: subject(),
      grants: [grant('a', toUser(1), 'readonly', false)],
      target: file('a/f'),
      capabilities: ['list', 'read'],
    },
    {
      name: 'non-recursive grant: not a subfolder',
      who: subject(),
      grants: [grant('a', toUser(1), 'readonly', false)],
      target: dir('a/d'),
      capabilities: [],
    },
    {
      name: 'non-recursive grant: not a file deeper down',
      who: subject(),
      grants: [grant('a', toUser(1), 'readonly', false)],
      target: file('a/d/f'),
      capabilities: [],
    },
    {
      name: 'a grant below the path gives nothing on the path',
      who: subject(),
      grants: [grant('a/b', toUser(1), 'full')],
      target: dir('a'),
      capabilities: [],
    },
    {
      name: "a grant on 'a' gives nothing on 'ab'",
      who: subject(),
      grants: [grant('a', toUser(1), 'full')],
      target: dir('ab'),
      capabilities: [],
    },
    {
      name: 'a recursive grant on the site root reaches into Custom Workspaces (coverage is literal)',
      who: subject(),
      grants: [grant('', toUser(1), 'list')],
      target: dir('_/workspaces/1/a'),
      capabilities: ['list'],
    },
  ];

  it.each(rows)('$name', ({ who, grants, target, capabilities }) => {
    expect(decide(who, target, grants).capabilities).toEqual(capabilities);
  });

  it('can() answers one capability', () => {
    const grants = [grant('a', toUser(1), 'writeonly')];
    expect(can(subject(), dir('a/b'), 'write', grants)).toBe(true);
    expect(can(subject(), dir('a/b'), 'read', grants)).toBe(false);
  });
});

describe('reasons', () => {
  it('name each capability and role with the grant and the way it reached the user', () => {
    const who = subject({ userId: 4, groups: [1, 2] });
    const grants = [
      grant('_/workspaces/3', toAllOf(1, 2), 'admin', true, 10),
      grant('_/workspaces/3/a', toGroup(1), 'admin', true, 11),
      grant('_/workspaces/3/a', toUser(4), 'writeonly', true, 12),
    ];
    const decision = decide(who, dir('_/workspaces/3/a/b'), grants);
    expect(decision.reasons).toContainEqual({
      kind: 'role',
      role: 'workspace_admin',
      source: { kind: 'role', role: 'workspace_admin_grant', workspaceId: 3, permissionId: 10, via: { groupIds: [1, 2] } },
    });
    expect(decision.reasons).toContainEqual({
      kind: 'role',
      role: 'folder_admin',
      source: { kind: 'grant', permissionId: 11, via: { groupId: 1 } },
    });
    expect(decision.reasons).toContainEqual({
      kind: 'capability',
      capability: 'write',
      source: { kind: 'grant', permissionId: 12, via: 'user' },
    });
    // Every capability reason from a grant, per grant, as the level says.
    const fromGrant12 = decision.reasons.filter((r) => r.source.kind === 'grant' && r.source.permissionId === 12);
    expect(fromGrant12.map((r) => (r.kind === 'capability' ? r.capability : r.role))).toEqual(['write']);
    expect(decision.nearMisses).toEqual([]);
  });

  it('list nothing for a user with no access', () => {
    const decision = decide(subject(), dir('a'), []);
    expect(decision.reasons).toEqual([]);
    expect(decision.capabilities).toEqual([]);
  });
});

describe('near misses: grants on the path or above that did not apply', () => {
  const who = subject({ userId: 4, groups: [1, 2] });

  it.each([
    {
      name: 'non-recursive grant above the path',
      g: grant('a', toUser(4), 'full', false, 1),
      target: dir('a/b'),
      reasons: [{ code: 'not_recursive' }],
    },
    {
      name: 'non-recursive grant two levels above a file',
      g: grant('a', toUser(4), 'full', false, 1),
      target: file('a/b/c'),
      reasons: [{ code: 'not_recursive' }],
    },
    {
      name: 'group the user is not in',
      g: grant('a', toGroup(9), 'full', true, 1),
      target: dir('a/b'),
      reasons: [{ code: 'not_member', groupId: 9 }],
    },
    {
      name: 'ALL-of grant with missing groups listed',
      g: grant('a', toAllOf(1, 8, 9), 'full', true, 1),
      target: dir('a/b'),
      reasons: [{ code: 'missing_groups', missingGroupIds: [8, 9] }],
    },
    {
      name: 'another user',
      g: grant('a', toUser(5), 'full', true, 1),
      target: dir('a'),
      reasons: [{ code: 'other_user', userId: 5 }],
    },
    {
      name: 'every reason at once',
      g: grant('', toGroup(9), 'list', false, 1),
      target: dir('a/b'),
      reasons: [{ code: 'not_member', groupId: 9 }, { code: 'not_recursive' }],
    },
    {
      name: 'an ALL-of grant listing no group',
      g: grant('a', toAllOf(), 'admin', true, 1),
      target: dir('a'),
      reasons: [{ code: 'invalid_grantee' }],
    },
  ])('$name', ({ g, target, reasons }) => {
    const decision = decide(who, target, [g]);
    expect(decision.nearMisses).toEqual([
      { permissionId: 1, pathKey: g.pathKey, level: g.level, recursive: g.recursive, reasons },
    ]);
    expect(decision.capabilities).toEqual([]);
  });

  it('leave out grants below or beside the path', () => {
    const decision = decide(who, dir('a/b'), [
      grant('a/b/c', toUser(5), 'full'),
      grant('a/c', toUser(5), 'full'),
      grant('ab', toUser(5), 'full'),
    ]);
    expect(decision.nearMisses).toEqual([]);
  });

  it('are sorted by permission id', () => {
    const decision = decide(who, dir('a/b'), [
      grant('a', toUser(5), 'full', true, 30),
      grant('', toUser(5), 'full', true, 10),
      grant('a/b', toUser(5), 'full', true, 20),
    ]);
    expect(decision.nearMisses.map((n) => n.permissionId)).toEqual([10, 20, 30]);
  });
});

describe('decision frame', () => {
  it('reports the target and its Workspace', () => {
    const target = file('_/workspaces/4/x');
    const decision = decide(subject(), target, []);
    expect(decision.target).toBe(target);
    expect(decision.workspaceId).toBe(4);
  });
});
