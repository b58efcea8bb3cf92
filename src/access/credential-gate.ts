import { errors } from '../errors/catalogue.js';
import type { Caller } from './caller.js';

/**
 * What an operation is, as far as the credential it is called with matters (contract 3.4):
 * - `file`: a file or folder operation, through whichever front door (the file session asks);
 * - `file-context`: what serves file work without being it: listing the Workspaces (it only says
 *   where the caller's folders are), and showing or revoking the calling key itself
 *   (docs/decisions.md);
 * - `administration`: everything else.
 */
export type OperationKind = 'file' | 'file-context' | 'administration';

/**
 * The one rule on which credential reaches which kind of operation: a `files_only` API key reaches
 * no administration; a share link reaches file operations only; every other credential reaches
 * every kind. Whether the caller may then do
 * the operation is decided afterwards, by the operation, from current data.
 */
export function credentialReaches(caller: Caller, kind: OperationKind): boolean {
  const credential = caller.credential;
  if (credential.kind === 'api_key' && credential.permissionSet === 'files_only') return kind !== 'administration';
  if (credential.kind === 'share_link') return kind === 'file';
  return true;
}

/** The credential gate: `not-authorized/api-key-is-files-only` where the credential does not reach. */
export function assertCredentialReaches(caller: Caller, kind: OperationKind): void {
  if (!credentialReaches(caller, kind)) throw errors.apiKeyIsFilesOnly();
}
