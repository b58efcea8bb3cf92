import { describe, expect, it } from 'vitest';
import {
  isStrictAncestor,
  parentKey,
  workspaceOfPath,
  workspaceRootId,
  workspaceRootKey,
} from '../../src/authz/index.js';

describe('workspaceOfPath', () => {
  it.each([
    ['', 0],
    ['a', 0],
    ['_', 0],
    ['_/workspaces', 0],
    ['_/workspaces/1', 1],
    ['_/workspaces/1/a/b', 1],
    ['_/workspaces/12/a', 12],
    ['_/workspaces/0', 0],
    ['_/workspaces/0/a', 0],
    ['_/workspaces/01', 0],
    ['_/workspaces/1a', 0],
    ['_/workspaces/-1', 0],
    ['_/workspaces/99999999999999999999', 0],
    ['_/workspacesx/1', 0],
    ['x/_/workspaces/1', 0],
    ['_/Workspaces/1', 0],
  ])('%j is in Workspace %i', (path, workspaceId) => {
    expect(workspaceOfPath(path)).toBe(workspaceId);
  });
});

describe('workspaceRootId', () => {
  it.each([
    ['_/workspaces/3', 3],
    ['_/workspaces/3/a', null],
    ['_/workspaces', null],
    ['_/workspaces/0', null],
    ['_/workspaces/03', null],
    ['', null],
  ])('%j -> %j', (path, id) => {
    expect(workspaceRootId(path)).toBe(id);
  });

  it('round-trips with workspaceRootKey', () => {
    expect(workspaceRootKey(7)).toBe('_/workspaces/7');
    expect(workspaceRootId(workspaceRootKey(7))).toBe(7);
  });
});

describe('path relations', () => {
  it.each([
    ['', 'a', true],
    ['', '', false],
    ['a', 'a', false],
    ['a', 'a/b', true],
    ['a', 'ab', false],
    ['a', 'ab/c', false],
    ['a/b', 'a/b/c/d', true],
    ['a/b', 'a', false],
  ])('isStrictAncestor(%j, %j) = %s', (ancestor, path, expected) => {
    expect(isStrictAncestor(ancestor, path)).toBe(expected);
  });

  it.each([
    ['', null],
    ['a', ''],
    ['a/b', 'a'],
    ['_/workspaces/1', '_/workspaces'],
  ])('parentKey(%j) = %j', (path, parent) => {
    expect(parentKey(path)).toBe(parent);
  });
});
