import { describe, expect, it } from 'vitest';
import { decide } from '../../src/authz/index.js';
import type { Capability, Grant, Subject, Target } from '../../src/authz/index.js';
import { dir, file, grant, subject, toAllOf, toGroup, toUser } from './fixtures.js';

const ALL: Capability[] = ['list', 'read', 'write', 'delete', 'history', 'share', 'manage'];

interface Row {
  name: string;
  who: Subject;
  grants: Grant[];
  target: Target;
  workspaceAdmin: boolean;
  folderAdmin: boolean;
  capabilities: Capability[];
}

const plainUser = subject({ userId: 7, workspaceId: 0 });
const member = (...groups: number[]) => subject({ userId: 7, workspaceId: 0, groups });

describe('Workspace Administrator through a root grant (product rules 3, 4; who-may-do-what table)', () => {
  const rows: Row[] = [
    {
      name: 'user admin+recursive on the root: Workspace Administrator inside',
      who: plainUser,
      grants: [grant('_/workspaces/2', toUser(7), 'admin', true)],
      target: dir('_/workspaces/2/deep/er'),
      workspaceAdmin: true,
      folderAdmin: false,
      capabilities: ALL,
    },
    {
      name: 'user admin+recursive on the root: on the root itself',
      who: plainUser,
      grants: [grant('_/workspaces/2', toUser(7), 'admin', true)],
      target: dir('_/workspaces/2'),
      workspaceAdmin: true,
      folderAdmin: false,
      capabilities: ALL,
    },
    {
      name: 'group admin+recursive on the root: members inherit',
      who: member(5),
      grants: [grant('_/workspaces/2', toGroup(5), 'admin', true)],
      target: file('_/workspaces/2/a/report.pdf'),
      workspaceAdmin: true,
      folderAdmin: false,
      capabilities: ALL,
    },
    {
      name: 'group root grant: a non-member gets nothing',
      who: member(6),
      grants: [grant('_/workspaces/2', toGroup(5), 'admin', true)],
      target: dir('_/workspaces/2/a'),
      workspaceAdmin: false,
      folderAdmin: false,
      capabilities: [],
    },
    {
      name: 'ALL-of root grant: a member of every group is Workspace Administrator',
      who: member(5, 6, 9),
      grants: [grant('_/workspaces/2', toAllOf(5, 6), 'admin', true)],
      target: dir('_/workspaces/2/a'),
      workspaceAdmin: true,
      folderAdmin: false,
      capabilities: ALL,
    },
    {
      name: 'ALL-of root grant: a member of only some groups is not',
      who: member(5),
      grants: [grant('_/workspaces/2', toAllOf(5, 6), 'admin', true)],
      target: dir('_/workspaces/2/a'),
      workspaceAdmin: false,
      folderAdmin: false,
      capabilities: [],
    },
    {
      name: 'a root grant of Workspace 2 gives nothing in Workspace 3',
      who: plainUser,
      grants: [grant('_/workspaces/2', toUser(7), 'admin', true)],
      target: dir('_/workspaces/3/a'),
      workspaceAdmin: false,
      folderAdmin: false,
      capabilities: [],
    },
    {
      name: 'a root grant of Workspace 2 gives nothing in Workspace 0',
      who: plainUser,
      grants: [grant('_/workspaces/2', toUser(7), 'admin', true)],
      target: dir('a'),
      workspaceAdmin: false,
      folderAdmin: false,
      capabilities: [],
    },
    {
      name: 'admin on a subfolder of the root: Folder Admin only',
      who: plainUser,
      grants: [grant('_/workspaces/2/sub', toUser(7), 'admin', true)],
      target: dir('_/workspaces/2/sub/x'),
      workspaceAdmin: false,
      folderAdmin: true,
      capabilities: ALL,
    },
    {
      name: 'admin on a subfolder gives nothing on the root',
      who: plainUser,
      grants: [grant('_/workspaces/2/sub', toUser(7), 'admin', true)],
      target: dir('_/workspaces/2'),
      workspaceAdmin: false,
      folderAdmin: false,
      capabilities: [],
    },
    {
      name: 'group admin on a subfolder: members are Folder Admins only',
      who: member(5),
      grants: [grant('_/workspaces/2/sub', toGroup(5), 'admin', true)],
      target: file('_/workspaces/2/sub/f'),
      workspaceAdmin: false,
      folderAdmin: true,
      capabilities: ALL,
    },
    {
      name: 'non-recursive admin on the root: Folder Admin of the root, not Workspace Administrator',
      who: plainUser,
      grants: [grant('_/workspaces/2', toUser(7), 'admin', false)],
      target: dir('_/workspaces/2'),
      workspaceAdmin: false,
      folderAdmin: true,
      capabilities: ALL,
    },
    {
      name: 'non-recursive admin on the root reaches files in it',
      who: plainUser,
      grants: [grant('_/workspaces/2', toUser(7), 'admin', false)],
      target: file('_/workspaces/2/f'),
      workspaceAdmin: false,
      folderAdmin: true,
      capabilities: ALL,
    },
    {
      name: 'non-recursive admin on the root stops at subfolders',
      who: plainUser,
      grants: [grant('_/workspaces/2', toUser(7), 'admin', false)],
      target: dir('_/workspaces/2/d'),
      workspaceAdmin: false,
      folderAdmin: false,
      capabilities: [],
    },
    {
      name: 'full+recursive on the root is folder access, not administration',
      who: plainUser,
      grants: [grant('_/workspaces/2', toUser(7), 'full', true)],
      target: dir('_/workspaces/2/a'),
      workspaceAdmin: false,
      folderAdmin: false,
      capabilities: ['list', 'read', 'write', 'delete'],
    },
    {
      name: "admin+recursive on '_/workspaces' is a Folder Admin over every root, never Workspace Administrator",
      who: plainUser,
      grants: [grant('_/workspaces', toUser(7), 'admin', true)],
      target: dir('_/workspaces/2/a'),
      workspaceAdmin: false,
      folderAdmin: true,
      capabilities: ALL,
    },
    {
      name: "admin+recursive on '_/workspaces/0' names no Workspace",
      who: plainUser,
      grants: [grant('_/workspaces/0', toUser(7), 'admin', true)],
      target: dir('_/workspaces/0/a'),
      workspaceAdmin: false,
      folderAdmin: true,
      capabilities: ALL,
    },
    {
      name: "admin+recursive on '_/workspaces/02' names no Workspace",
      who: plainUser,
      grants: [grant('_/workspaces/02', toUser(7), 'admin', true)],
      target: dir('_/workspaces/02'),
      workspaceAdmin: false,
      folderAdmin: true,
      capabilities: ALL,
    },
    {
      name: 'Workspace 0 has no Workspace Administrator: admin+recursive on the site root is Folder Admin',
      who: plainUser,
      grants: [grant('', toUser(7), 'admin', true)],
      target: dir('a'),
      workspaceAdmin: false,
      folderAdmin: true,
      capabilities: ALL,
    },
    {
      name: 'a root grant and a subfolder admin grant together: both roles',
      who: member(5),
      grants: [grant('_/workspaces/2', toGroup(5), 'admin', true), grant('_/workspaces/2/s', toUser(7), 'admin')],
      target: dir('_/workspaces/2/s/t'),
      workspaceAdmin: true,
      folderAdmin: true,
      capabilities: ALL,
    },
  ];

  it.each(rows)('$name', ({ who, grants, target, workspaceAdmin, folderAdmin, capabilities }) => {
    const decision = decide(who, target, grants);
    expect(decision.siteAdmin).toBe(false);
    expect(decision.workspaceAdmin).toBe(workspaceAdmin);
    expect(decision.folderAdmin).toBe(folderAdmin);
    expect(decision.capabilities).toEqual(capabilities);
  });
});

describe('workspace_admin flag (applies only to the user\'s own Custom Workspace)', () => {
  const flagged = subject({ userId: 3, workspaceId: 2, workspaceAdmin: true });
  const rows: { target: Target; who: Subject; workspaceAdmin: boolean; capabilities: Capability[] }[] = [
    { who: flagged, target: dir('_/workspaces/2'), workspaceAdmin: true, capabilities: ALL },
    { who: flagged, target: file('_/workspaces/2/a/b/c'), workspaceAdmin: true, capabilities: ALL },
    { who: flagged, target: dir('_/workspaces/3/a'), workspaceAdmin: false, capabilities: [] },
    { who: flagged, target: dir('_/workspaces'), workspaceAdmin: false, capabilities: [] },
    { who: flagged, target: dir(''), workspaceAdmin: false, capabilities: [] },
    { who: flagged, target: dir('a'), workspaceAdmin: false, capabilities: [] },
    // The flag is meaningless on a Workspace 0 user: Workspace 0 has no Workspace Administrator.
    { who: subject({ workspaceId: 0, workspaceAdmin: true }), target: dir('a'), workspaceAdmin: false, capabilities: [] },
    { who: subject({ workspaceId: 0, workspaceAdmin: true }), target: dir('_/workspaces/1'), workspaceAdmin: false, capabilities: [] },
    // Unflagged users of the Workspace are not administrators.
    { who: subject({ workspaceId: 2 }), target: dir('_/workspaces/2'), workspaceAdmin: false, capabilities: [] },
  ];

  it.each(rows)('user of $who.workspaceId (flag $who.workspaceAdmin) on $target.pathKey', (row) => {
    const decision = decide(row.who, row.target, []);
    expect(decision.workspaceAdmin).toBe(row.workspaceAdmin);
    expect(decision.folderAdmin).toBe(false);
    expect(decision.capabilities).toEqual(row.capabilities);
  });

  it('names the flag as the reason', () => {
    const decision = decide(flagged, dir('_/workspaces/2/a'), []);
    expect(decision.reasons[0]).toEqual({
      kind: 'role',
      role: 'workspace_admin',
      source: { kind: 'role', role: 'workspace_admin_flag', workspaceId: 2 },
    });
  });
});

describe('Site Administrator (never narrowed)', () => {
  const admin = subject({ userId: 1, siteAdmin: true });
  const narrowing = [
    grant('', toUser(1), 'list', false),
    grant('a', toUser(1), 'writeonly', true),
    grant('_/workspaces/2', toUser(1), 'readonly', true),
    grant('_/workspaces/2/x', toUser(1), 'history', false),
  ];

  it.each([dir(''), dir('a'), file('a/b/c'), dir('_/workspaces'), dir('_/workspaces/2'), file('_/workspaces/2/x/y')])(
    'has everything on $type $pathKey whatever its grants',
    (target) => {
      const decision = decide(admin, target, narrowing);
      expect(decision.siteAdmin).toBe(true);
      expect(decision.capabilities).toEqual(ALL);
      // Roles are reported separately: site_admin is not workspace_admin nor folder_admin.
      expect(decision.workspaceAdmin).toBe(false);
      expect(decision.folderAdmin).toBe(false);
      expect(decision.reasons[0]).toEqual({ kind: 'role', role: 'site_admin', source: { kind: 'role', role: 'site_admin' } });
    },
  );
});

describe('administrator flags fail closed', () => {
  it.each([1, 'true', {}])('a flag of %j that is not the boolean true makes nobody an administrator', (value) => {
    const who = { ...subject({ workspaceId: 2 }), siteAdmin: value, workspaceAdmin: value } as unknown as Subject;
    const decision = decide(who, dir('_/workspaces/2/a'), []);
    expect(decision.siteAdmin).toBe(false);
    expect(decision.workspaceAdmin).toBe(false);
    expect(decision.capabilities).toEqual([]);
  });
});
