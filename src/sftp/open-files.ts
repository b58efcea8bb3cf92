import type { Attributes } from 'ssh2';
import { parentKey } from '../authz/index.js';
import type { ChildPosition, FileReader, StagedUpload } from '../files/index.js';
import { HandleTable } from './handles.js';
import { attributesOfFileBeingWritten } from './operations/attributes.js';
import type { SftpStatus } from './operations/status.js';
import type { OwnWriteReader } from './own-write-reader.js';

/** What a handle holds; `file` is the site path key of the file or folder it is open on (FileOrder). */
export type Open = { file: string } & (
  | { kind: 'folder'; path: string; after: ChildPosition | undefined; done: boolean }
  | { kind: 'reader'; reader: FileReader | OwnWriteReader }
  | Upload
);

/**
 * A file being written: its bytes so far, and the time the client set for it. Committing it
 * changes its folder's listing (folderOf). `readable` when it was opened to read as well;
 * `closed` once its handle is closed or dropped (committed or abandoned).
 */
export type Upload = {
  kind: 'upload';
  file: string;
  upload: StagedUpload;
  path: string;
  readable: boolean;
  failed: SftpStatus | undefined;
  mtime: number | undefined;
  closed: boolean;
};

/**
 * The files and folders one SFTP session has open, by handle (HandleTable bounds them), and what
 * the session knows from them: which files it is writing, which FileOrder must keep a request on
 * a handle in order with.
 */
export class OpenFiles {
  private readonly table = new HandleTable<Open>();

  /** A new handle, or undefined when the session holds the most it may. */
  add(open: Open): Buffer | undefined {
    return this.table.add(open);
  }

  get(handle: Buffer): Open | undefined {
    return this.table.get(handle);
  }

  take(handle: Buffer): Open | undefined {
    return markClosed(this.table.take(handle));
  }

  takeAll(): Open[] {
    return this.table.takeAll().map((open) => markClosed(open));
  }

  /**
   * The files a request on `handle` is ordered with (none for an unknown handle). A CLOSE of a
   * file being written commits it into its folder, so it is ordered with the folder's requests too.
   */
  filesOf(handle: Buffer, request: 'close' | 'other'): string[] {
    const open = this.table.get(handle);
    if (open === undefined) return [];
    return request === 'close' && open.kind === 'upload' ? [open.file, folderOf(open)] : [open.file];
  }

  /** The upload open on `file`, the latest if several: what STAT answers there. */
  beingWritten(file: string): Upload | undefined {
    let latest: Upload | undefined;
    for (const open of this.table.values()) if (open.kind === 'upload' && open.file === file) latest = open;
    return latest;
  }

  /** The files being written in `folder`, the latest upload of each. */
  beingWrittenIn(folder: string): Upload[] {
    const latest = new Map<string, Upload>();
    for (const open of this.table.values()) if (open.kind === 'upload' && folderOf(open) === folder) latest.set(open.file, open);
    return [...latest.values()];
  }
}

/** What STAT, FSTAT and READDIR answer for a file being written, at `now` unless the client set its time. */
export function attributesOfUpload(writing: Upload, now: number): Attributes {
  return attributesOfFileBeingWritten(writing.upload.size, writing.mtime ?? now);
}

function markClosed<T extends Open | undefined>(open: T): T {
  if (open?.kind === 'upload') open.closed = true;
  return open;
}

/** The site path key of the folder a file being written lies in. */
function folderOf(upload: Upload): string {
  return parentKey(upload.file) ?? '';
}
