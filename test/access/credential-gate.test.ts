import { describe, expect, it } from 'vitest';
import { assertCredentialReaches, credentialReaches, type Caller, type OperationKind } from '../../src/access/index.js';
import { AtriumError } from '../../src/errors/atrium-error.js';

const KINDS: OperationKind[] = ['file', 'file-context', 'administration'];

function keyCaller(permissionSet: 'full' | 'files_only'): Caller {
  return { user: null, credential: { kind: 'api_key', keyId: 1, permissionSet, workspaceId: 0 }, siteAdmin: true, homeWorkspaceId: 0 };
}

const sessionCaller: Caller = { user: null, credential: { kind: 'session', sessionId: 1, reauthFailures: 0 }, siteAdmin: false, homeWorkspaceId: 0 };

describe('the credential gate', () => {
  it('lets a files_only key reach file operations and what serves them, and no administration', () => {
    const filesOnly = keyCaller('files_only');
    expect(KINDS.map((kind) => credentialReaches(filesOnly, kind))).toEqual([true, true, false]);
    expect(() => assertCredentialReaches(filesOnly, 'file')).not.toThrow();
    let refusal: unknown;
    try {
      assertCredentialReaches(filesOnly, 'administration');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AtriumError);
    expect((refusal as AtriumError).type).toBe('not-authorized/api-key-is-files-only');
  });

  it('lets a full key and a session reach every kind of operation', () => {
    for (const caller of [keyCaller('full'), sessionCaller]) {
      expect(KINDS.every((kind) => credentialReaches(caller, kind))).toBe(true);
    }
  });
});
