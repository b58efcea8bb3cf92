import { describe, expect, it } from 'vitest';
import { AtriumError } from '../../src/errors/atrium-error.js';
import { grantableSitePath, isInRequestWorkspace, isReservedSitePath, toRequestPath, toSitePath } from '../../src/access/index.js';

// Unit tests of the helper that the folders issue reuses; the HTTP tests prove the same through the API.
describe('context paths', () => {
  it('reads paths in context 0 as site paths, respelling the Workspace prefix canonically', () => {
    expect(toSitePath(0, '/Top//Level/')).toEqual({ path: 'Top/Level', key: 'top/level', workspaceId: 0 });
    expect(toSitePath(0, '_/WORKSPACES/12/Reports')).toEqual({ path: '_/Workspaces/12/Reports', key: '_/workspaces/12/reports', workspaceId: 12 });
    expect(toSitePath(0, '_/workspaces/12')).toEqual({ path: '_/Workspaces/12', key: '_/workspaces/12', workspaceId: 12 });
    expect(toSitePath(0, '')).toEqual({ path: '', key: '', workspaceId: 0 });
  });

  it('reads paths in context N relative to its root, the empty path being the root', () => {
    expect(toSitePath(3, '')).toEqual({ path: '_/Workspaces/3', key: '_/workspaces/3', workspaceId: 3 });
    expect(toSitePath(3, '/')).toEqual({ path: '_/Workspaces/3', key: '_/workspaces/3', workspaceId: 3 });
    expect(toSitePath(3, 'A/b')).toEqual({ path: '_/Workspaces/3/A/b', key: '_/workspaces/3/a/b', workspaceId: 3 });
    // A qualified-looking path is just a folder named "_" inside N.
    expect(toSitePath(3, '_/Workspaces/4').workspaceId).toBe(3);
  });

  it('never lets a path climb out of its Workspace', () => {
    for (const input of ['..', '../4', 'a/../../x', './a', 'a/.']) {
      expect(() => toSitePath(3, input), input).toThrow(AtriumError);
      expect(() => toSitePath(0, `_/Workspaces/3/${input}`), input).toThrow(AtriumError);
    }
  });

  it('shows site paths as the context sees them, and null outside it', () => {
    expect(toRequestPath(0, '_/Workspaces/3/A')).toBe('_/Workspaces/3/A');
    expect(toRequestPath(3, '_/Workspaces/3/A/b')).toBe('A/b');
    expect(toRequestPath(3, '_/Workspaces/3')).toBe('');
    expect(toRequestPath(3, '_/Workspaces/31/A')).toBeNull();
    expect(toRequestPath(3, 'Top')).toBeNull();
    expect(toRequestPath(3, '')).toBeNull();
    expect(isInRequestWorkspace(3, '_/workspaces/3/a')).toBe(true);
    expect(isInRequestWorkspace(3, '_/workspaces/30')).toBe(false);
    expect(isInRequestWorkspace(0, '_/workspaces/30')).toBe(true);
  });

  it('round-trips: a relative path read in N and shown in N is itself', () => {
    for (const input of ['', 'A', 'A/b c/D', 'Ünïcödé/名前']) {
      expect(toRequestPath(7, toSitePath(7, input).path)).toBe(input);
    }
  });

  it('marks the reserved folder "_" outside Custom Workspace roots, and refuses grants there', () => {
    for (const input of ['_', '_/Workspaces', '_/workspaces/abc', '_/Workspaces/0', '_/Workspaces/007', '_/Other/x']) {
      expect(isReservedSitePath(toSitePath(0, input)), input).toBe(true);
      expect(() => grantableSitePath(0, input), input).toThrow(expect.objectContaining({ type: 'bad-request/invalid-path' }));
    }
    for (const input of ['', 'Top', '_x', '_/Workspaces/7', '_/Workspaces/7/_']) {
      expect(isReservedSitePath(toSitePath(0, input)), input).toBe(false);
    }
    expect(grantableSitePath(5, '_').path).toBe('_/Workspaces/5/_');
  });
});
