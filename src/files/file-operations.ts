import type { Readable } from 'node:stream';
import { assertCredentialReaches, type Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import type { Origin } from '../lib/origin.js';
import type { Clock } from '../lib/time.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import type { RangeRequest } from './byte-range.js';
import { type Disposition, openDownload, type OpenedDownload, type ReadOptions } from './downloads.js';
import type { FileDeps, FileEventWatcher, FileKeeping } from './file-deps.js';
import { FileSession } from './file-session.js';
import { openScope } from './session-scope.js';
import { TransferLinks } from './transfer-signing.js';
import { registerFileDigests } from './file-digests.js';
import { registerTrashPurge } from './trash-purge.js';
import type { JobRunner } from '../jobs/index.js';
import { receivePart, type ReceivedPart } from './upload-parts.js';
import { UploadRuns } from './upload-runs.js';

/**
 * Every file operation, for every front door (REST today; the web console, WebDAV and SFTP to
 * come), built once from the core. A caller works through a session; the signed transfer links
 * carry their own authority, so what they reach is answered here, outside any session.
 */
export interface FileOperations {
  /**
   * The caller's session in the request's Workspace (as access/ resolved it), past the credential
   * gate: every credential that reaches file operations may open one.
   */
  session(caller: Caller, requestWorkspaceId: number, origin: Origin): Promise<FileSession>;
  /** Stores one part of an upload sent to the signed link a session offered for it. */
  receivePart(token: string, body: Readable | undefined, declaredLength: number | undefined): Promise<ReceivedPart>;
  /**
   * The bytes of the file version a signed download link names (or the part of them asked for),
   * recorded in History as a download by the link's holder from address `ip`, served as `asked`
   * when the file's type allows it (downloads.ts).
   */
  openDownload(token: string, range: RangeRequest | undefined, options: ReadOptions & { ip: string | null; asked?: Disposition }): Promise<OpenedDownload>;
  /**
   * Makes `jobs` purge the trash past the site's retention (trash-purge.ts) and compute the
   * digests large uploads leave for later (file-digests.ts): the core calls it once, before the
   * runner starts.
   */
  registerHousekeeping(jobs: JobRunner): void;
  /** The largest file an upload may store (ATRIUM_MAX_UPLOAD_BYTES), for clients that say so before sending. */
  readonly maxUploadBytes: number;
}

export function createFileOperations(parts: { db: Db; clock: Clock; storage: BlobStorage; maxUploadBytes: number; keeping: () => Promise<FileKeeping>; watcher?: FileEventWatcher }): FileOperations {
  const deps: FileDeps = { ...parts, links: new TransferLinks(parts.db, parts.clock), runs: new UploadRuns(parts.storage, () => parts.clock.now()) };
  return {
    async session(caller, requestWorkspaceId, origin) {
      assertCredentialReaches(caller, 'file');
      return new FileSession(await openScope(deps, caller, requestWorkspaceId, origin));
    },
    receivePart: (token, body, declaredLength) => receivePart(deps, token, body, declaredLength),
    openDownload: (token, range, options) => openDownload(deps, token, range, options),
    registerHousekeeping(jobs) {
      registerTrashPurge(jobs, deps);
      registerFileDigests(jobs, deps);
    },
    maxUploadBytes: parts.maxUploadBytes,
  };
}
