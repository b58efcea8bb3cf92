import { describe, expect, it } from 'vitest';
import { decide, decideChildren } from '../../src/authz/index.js';
import type { ChildEntry, Grant, Subject } from '../../src/authz/index.js';
import { grant, subject, toGroup, toUser } from './fixtures.js';

function singleChecks(who: Subject, folder: string, children: ChildEntry[], grants: Grant[]) {
  return children.map(({ name, type }) => {
    const pathKey = folder === '' ? name : `${folder}/${name}`;
    const { capabilities, siteAdmin, workspaceAdmin, folderAdmin } = decide(who, { pathKey, type }, grants);
    return { name, pathKey, type, capabilities, siteAdmin, workspaceAdmin, folderAdmin };
  });
}

describe('decideChildren (folder listing)', () => {
  it('applies grants of the folder, its ancestors and each child, like single checks', () => {
    const who = subject({ userId: 2, groups: [1] });
    const grants = [
      // Non-recursive, two levels above the children: must not reach them (share would leak).
      grant('', toUser(2), 'bundle', false),
      grant('a', toGroup(1), 'readonly', false),
      grant('a', toUser(2), 'history', true),
      grant('a/d1', toUser(2), 'writeonly', true),
      grant('a/f2', toGroup(1), 'admin', true),
      grant('a/d1/deeper', toUser(2), 'full', true),
    ];
    const children: ChildEntry[] = [
      { name: 'd1', type: 'directory' },
      { name: 'd2', type: 'directory' },
      { name: 'f1', type: 'file' },
      { name: 'f2', type: 'file' },
    ];
    const listed = decideChildren(who, 'a', children, grants);
    expect(listed).toEqual(singleChecks(who, 'a', children, grants));
    expect(listed.map((c) => c.capabilities)).toEqual([
      ['list', 'write', 'history'],
      ['list', 'history'],
      ['list', 'read', 'history'],
      ['list', 'read', 'write', 'delete', 'history', 'share', 'manage'],
    ]);
    expect(listed.map((c) => c.folderAdmin)).toEqual([false, false, false, true]);
  });

  it("gives each Workspace root under '_/workspaces' its own Workspace", () => {
    const who = subject({ userId: 2, workspaceId: 3, workspaceAdmin: true, groups: [5] });
    const grants = [grant('_/workspaces/1', toGroup(5), 'admin', true), grant('_/workspaces/2', toUser(2), 'admin', false)];
    const children: ChildEntry[] = ['1', '2', '3', '4', '0', '01'].map((name) => ({ name, type: 'directory' }));
    const listed = decideChildren(who, '_/workspaces', children, grants);
    expect(listed).toEqual(singleChecks(who, '_/workspaces', children, grants));
    expect(listed.map((c) => c.workspaceAdmin)).toEqual([true, false, true, false, false, false]);
    expect(listed.map((c) => c.folderAdmin)).toEqual([false, true, false, false, false, false]);
  });

  it('reports a Site Administrator on every child', () => {
    const who = subject({ siteAdmin: true });
    const listed = decideChildren(who, '', [{ name: 'x', type: 'file' }], []);
    expect(listed[0]?.siteAdmin).toBe(true);
    expect(listed[0]?.capabilities).toHaveLength(7);
  });

  it.each(['', 'a/b'])('refuses a child name that is not one segment (%j)', (name) => {
    expect(() => decideChildren(subject(), 'a', [{ name, type: 'file' }], [])).toThrow(TypeError);
  });

  it('does per-child work only for grants on that child', () => {
    // 20,000 children and as many child grants: linear, so well under the test timeout.
    const who = subject({ userId: 1 });
    const children: ChildEntry[] = [];
    const grants: Grant[] = [grant('big', toUser(1), 'list', false)];
    for (let i = 0; i < 20_000; i++) {
      children.push({ name: `c${i}`, type: i % 2 === 0 ? 'file' : 'directory' });
      grants.push(grant(`big/c${i}`, toUser(1), i % 3 === 0 ? 'readonly' : 'writeonly'));
    }
    const started = performance.now();
    const listed = decideChildren(who, 'big', children, grants);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(listed[0]?.capabilities).toEqual(['list', 'read']);
    expect(listed[1]?.capabilities).toEqual(['write']);
  });
});
