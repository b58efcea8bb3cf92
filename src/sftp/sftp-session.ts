import type { Socket } from 'node:net';
import ssh2 from 'ssh2';
import type { Attributes, InputAttributes, SFTPWrapper } from 'ssh2';
import { AtriumError } from '../errors/atrium-error.js';
import { DEFAULT_LISTING_SORT, modifiedTimeShown, type FileSession } from '../files/index.js';
import { FileOrder } from './file-order.js';
import { MAX_READ_BYTES } from './limits.js';
import { attributesOfUpload, OpenFiles, type Open, type Upload } from './open-files.js';
import { OwnWriteReader } from './own-write-reader.js';
import { attributesOf, longnameOf } from './operations/attributes.js';
import { handleExtension, pathsOfExtension } from './operations/extensions.js';
import { normalizeSftpPath, sessionPathOf } from './operations/sftp-paths.js';
import { statusOf, UNSUPPORTED, type SftpStatus } from './operations/status.js';

// ssh2 is CommonJS: its values come from the default export under Node's ESM.
const { utils } = ssh2;

const { OPEN_MODE, STATUS_CODE } = utils.sftp;

/** Folder entries per READDIR answer. */
const ENTRIES_PER_READDIR = 256;
/** Requests of one session being worked on at once; beyond it a request fails at once (bounded memory). */
export const MAX_PENDING_REQUESTS = 256;
/** Answers waiting to be sent: past this, READs wait for the client to take what it was sent. */
const MAX_BUFFERED_OUTPUT_BYTES = 8 * 1024 * 1024;

/**
 * One signed-in SFTP session: translates each request into a call on the caller's FileSession and
 * its answer (or AtriumError, through statusOf) into SFTP. It decides nothing: every right is the
 * file session's to decide, the same as REST. What it bounds is its own: open handles, requests in
 * progress, the size of a READ, and answers not yet taken by the client.
 *
 * Requests on one file (by path or by handle) run in the order they came, so a client's pipelined
 * requests work as sent (file-order.ts). A written file becomes visible to others at CLOSE; until
 * then this session alone sees it, as the file being written (STAT, LSTAT, FSTAT answer its size so
 * far). A session that ends with files still open (a disconnect, a client that never closes) drops
 * them and nothing partial is ever seen.
 */
export class SftpSession {
  private readonly handles = new OpenFiles();
  private readonly order = new FileOrder();
  private pending = 0;
  private ended = false;
  private files!: FileSession;
  /** The working folder relative paths start from: the landing folder (sftp-paths.ts). */
  private landing = '/';
  private opening: Promise<void> | undefined;

  /**
   * Listens at once: a client may send its first requests before the file session is open (OpenSSH
   * sends INIT with the subsystem request), and ssh2 refuses a request nobody listens for. Each
   * request waits for `files` to open.
   */
  /**
   * `arrived` runs each request as one that has just arrived, so that its cached reads see what was
   * committed before it (db/read-cache.ts, requestArrived).
   */
  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly filesOpening: Promise<FileSession>,
    private readonly socket: Socket,
    private readonly now: () => number,
    private readonly arrived: <T>(next: () => T) => T,
    /** Where a failure that is not the caller's goes (the server's log): the client is told only "Internal server error." */
    private readonly report: (error: Error) => void,
    /** The user's `user_root` (its landing folder), '' for none. */
    private readonly userRoot = '',
  ) {
    sftp.on('REALPATH', (id: number, path: string) => this.run(id, async () => {
      const normalized = normalizeSftpPath(path, this.landing);
      sftp.name(id, [{ filename: normalized, longname: normalized, attrs: {} as Attributes }]);
    }));
    sftp.on('STAT', (id: number, path: string) => this.stat(id, path));
    sftp.on('LSTAT', (id: number, path: string) => this.stat(id, path));
    sftp.on('FSTAT', (id: number, handle: Buffer) => this.fstat(id, handle));
    sftp.on('OPENDIR', (id: number, path: string) => this.openFolder(id, path));
    sftp.on('READDIR', (id: number, handle: Buffer) => this.readFolder(id, handle));
    sftp.on('OPEN', (id: number, path: string, flags: number) => this.open(id, path, flags));
    sftp.on('READ', (id: number, handle: Buffer, offset: number, length: number) => this.read(id, handle, offset, length));
    sftp.on('WRITE', (id: number, handle: Buffer, offset: number, data: Buffer) => this.write(id, handle, offset, data));
    sftp.on('CLOSE', (id: number, handle: Buffer) => this.close(id, handle));
    sftp.on('MKDIR', (id: number, path: string) => this.onPath(id, path, async (sessionPath) => {
      await this.files.createFolder(sessionPath, { mkdirParents: false });
      this.ok(id);
    }));
    sftp.on('RMDIR', (id: number, path: string) => this.remove(id, path, 'directory'));
    sftp.on('REMOVE', (id: number, path: string) => this.remove(id, path, 'file'));
    sftp.on('RENAME', (id: number, from: string, to: string) => this.run(id, async () => {
      await this.files.move(this.sessionPathOf(from), this.sessionPathOf(to));
      this.ok(id);
    }, () => [this.fileOf(from), this.fileOf(to)]));
    // The size (a truncate) and the modification time (sync tools compare it) are kept; other
    // attributes are accepted and ignored, Atrium keeping no owners or modes. The path must still
    // be one the caller sees: the file this session is writing there counts.
    sftp.on('SETSTAT', (id: number, path: string, attrs: InputAttributes) => this.onPath(id, path, async (sessionPath, file) => {
      const writing = this.handles.beingWritten(file);
      if (writing !== undefined) return this.changeFileBeingWritten(id, writing, attrs);
      const mtime = mtimeOf(attrs);
      if (attrs.size !== undefined) await this.resize(sessionPath, attrs.size);
      if (mtime !== undefined) await this.files.setModifiedTime(sessionPath, mtime);
      else if (attrs.size === undefined) await this.files.stat(sessionPath);
      this.ok(id);
    }));
    sftp.on('FSETSTAT', (id: number, handle: Buffer, attrs: InputAttributes) => this.withHandle(id, handle, async (open) => {
      if (open.kind === 'upload') return this.changeFileBeingWritten(id, open, attrs);
      if (attrs.size !== undefined && open.kind === 'reader') return this.fail(id, { code: STATUS_CODE.FAILURE, message: 'The handle is not open for writing.' });
      const mtime = mtimeOf(attrs);
      if (mtime !== undefined && open.kind === 'folder') await this.files.setModifiedTime(open.path, mtime);
      this.ok(id);
    }));
    sftp.on('EXTENDED', (id: number, name: string, data: Buffer | undefined) => this.run(id, async () => {
      const answered = await handleExtension(this.sftp, this.files, id, name, data, this.landing);
      if (!answered) this.fail(id, UNSUPPORTED);
    }, () => pathsOfExtension(name, data).map((path) => this.fileOf(path))));
    sftp.on('SYMLINK', (id: number) => this.fail(id, UNSUPPORTED));
    sftp.on('READLINK', (id: number) => this.fail(id, UNSUPPORTED));
    // The client's end of input is the end of the session: the channel is closed from this side too,
    // or the client waits for it.
    sftp.on('end', () => {
      this.end();
      sftp.end();
    });
    sftp.on('close', () => this.end());
  }

  /**
   * Drops every open handle once the requests already working on it have finished: uploads not
   * closed are abandoned (nothing partial becomes visible).
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const open of this.handles.takeAll()) void this.order.idle(open.file).then(() => this.release(open));
  }

  /**
   * STAT and LSTAT. A file this session has open for writing is answered as it stands in the
   * writing (its size so far), as a local file system would: clients stat a file right after
   * creating it (sshfs fails the create otherwise) and follow its size as they write.
   */
  private async stat(id: number, path: string): Promise<void> {
    await this.onPath(id, path, async (sessionPath, file) => {
      const writing = this.handles.beingWritten(file);
      if (writing !== undefined) return this.sftp.attrs(id, attributesOfUpload(writing, this.now()));
      this.sftp.attrs(id, attributesOf(await this.files.stat(sessionPath)));
    });
  }

  private async fstat(id: number, handle: Buffer): Promise<void> {
    await this.withHandle(id, handle, async (open) => {
      if (open.kind === 'folder') {
        this.sftp.attrs(id, attributesOf(await this.files.stat(open.path)));
        return;
      }
      if (open.kind === 'upload') return this.sftp.attrs(id, attributesOfUpload(open, this.now()));
      if (open.reader instanceof OwnWriteReader) {
        const { writing } = open.reader;
        this.sftp.attrs(id, writing.closed ? attributesOf(await this.files.stat(writing.path)) : attributesOfUpload(writing, this.now()));
        return;
      }
      const mtime = Math.floor(modifiedTimeShown(open.reader.entry) / 1000);
      this.sftp.attrs(id, { mode: 0o100000 | 0o400, uid: 0, gid: 0, size: open.reader.size, atime: mtime, mtime });
    });
  }

  private async openFolder(id: number, path: string): Promise<void> {
    await this.onPath(id, path, async (sessionPath, file) => {
      const folder = await this.files.stat(sessionPath);
      if (folder.type !== 'directory') return this.fail(id, { code: STATUS_CODE.FAILURE, message: 'Not a folder.' });
      this.answerHandle(id, { kind: 'folder', file, path: folder.path, after: undefined, done: false });
    });
  }

  /**
   * READDIR: the next page of the folder. Requests on one handle run one after the other
   * (FileOrder), so each takes the cursor the one before it left: pipelined READDIRs (sshfs sends
   * two at once) get consecutive pages and then EOF, never the same page twice.
   *
   * The files this session is writing in the folder are listed as STAT answers them (a new one
   * after the folder's own entries), so a listing agrees with STAT; and a CLOSE in the folder is
   * ordered with its listings, so a file is never missing between the two.
   */
  private async readFolder(id: number, handle: Buffer): Promise<void> {
    await this.withHandle(id, handle, async (open) => {
      if (open.kind !== 'folder') return this.fail(id, { code: STATUS_CODE.FAILURE, message: 'Not a folder handle.' });
      // A folder ends with EOF, or clients ask again forever.
      if (open.done) return this.fail(id, { code: STATUS_CODE.EOF, message: 'End of folder.' });
      const page = await this.files.list(open.path, { sort: DEFAULT_LISTING_SORT, after: open.after, limit: ENTRIES_PER_READDIR });
      open.after = page.next;
      open.done = page.next === undefined;
      const now = this.now();
      const writing = new Map(this.handles.beingWrittenIn(open.file).map((upload) => [upload.file, upload]));
      const names = page.entries.map((entry) => {
        const upload = writing.size === 0 || entry.type !== 'file' ? undefined : writing.get(this.fileOf(entry.path));
        return { filename: entry.name, attrs: upload === undefined ? attributesOf(entry) : attributesOfUpload(upload, now) };
      });
      if (open.done) names.push(...await this.notYetThere(writing.values(), now));
      if (names.length === 0) return this.fail(id, { code: STATUS_CODE.EOF, message: 'End of folder.' });
      this.sftp.name(id, names.map(({ filename, attrs }) => ({ filename, longname: longnameOf(filename, attrs, now), attrs })));
    });
  }

  /** Of these files being written, those not there yet: new files, which a listing's last page adds. */
  private async notYetThere(uploads: Iterable<Upload>, now: number): Promise<{ filename: string; attrs: Attributes }[]> {
    const added: { filename: string; attrs: Attributes }[] = [];
    for (const upload of uploads) {
      const exists = await this.files.stat(upload.path).then(() => true, () => false);
      if (!exists) added.push({ filename: upload.path.slice(upload.path.lastIndexOf('/') + 1), attrs: attributesOfUpload(upload, now) });
    }
    return added;
  }

  /**
   * OPEN: for reading, a reader of the file as it is; for writing (and for reading and writing), a
   * staged upload (files/).
   */
  private async open(id: number, path: string, flags: number): Promise<void> {
    await this.onPath(id, path, async (sessionPath, file) => {
      if ((flags & OPEN_MODE.WRITE) === 0 && (flags & OPEN_MODE.APPEND) === 0) {
        const writing = this.handles.beingWritten(file);
        const reader = writing === undefined ? await this.files.openReader(sessionPath) : new OwnWriteReader(writing, () => this.files.openReader(sessionPath));
        if (!this.answerHandle(id, { kind: 'reader', file, reader })) reader.close();
        return;
      }
      const upload = await this.files.stageUpload(sessionPath, {
        truncate: (flags & OPEN_MODE.TRUNC) !== 0,
        exclusive: (flags & OPEN_MODE.EXCL) !== 0 && (flags & OPEN_MODE.CREAT) !== 0,
        mustExist: (flags & OPEN_MODE.CREAT) === 0,
        append: (flags & OPEN_MODE.APPEND) !== 0,
      });
      const readable = (flags & OPEN_MODE.READ) !== 0;
      if (!this.answerHandle(id, { kind: 'upload', file, upload, path: sessionPath, readable, failed: undefined, mtime: undefined, closed: false })) await upload.abandon();
    });
  }

  private async read(id: number, handle: Buffer, offset: number, length: number): Promise<void> {
    await this.withHandle(id, handle, async (open) => {
      // A file opened to read and write reads what has been written so far (POSIX O_RDWR).
      const source = open.kind === 'reader' ? open.reader : open.kind === 'upload' && open.readable ? open.upload : undefined;
      if (source === undefined) return this.fail(id, { code: STATUS_CODE.FAILURE, message: 'The handle is not open for reading.' });
      const bytes = await source.read(offset, Math.min(length, MAX_READ_BYTES));
      if (bytes.length === 0) return this.fail(id, { code: STATUS_CODE.EOF, message: 'End of file.' });
      await this.roomToAnswer();
      this.sftp.data(id, bytes);
    });
  }

  private async write(id: number, handle: Buffer, offset: number, data: Buffer): Promise<void> {
    const bytes = keepable(data);
    await this.withHandle(id, handle, async (open) => {
      if (open.kind !== 'upload') return this.fail(id, { code: STATUS_CODE.FAILURE, message: 'The handle is not open for writing.' });
      if (open.failed !== undefined) throw open.failed;
      await open.upload.write(bytes, offset).catch((error: unknown) => {
        // One failed write fails the file: CLOSE must not commit it with a hole.
        open.failed = statusOf(error);
        throw error;
      });
      this.ok(id);
    });
  }

  /** CLOSE: an upload is committed now (made visible, recorded in History); anything else released. */
  private async close(id: number, handle: Buffer): Promise<void> {
    await this.run(id, async () => {
      const open = this.handles.take(handle);
      if (open === undefined) return this.fail(id, { code: STATUS_CODE.FAILURE, message: 'Unknown handle.' });
      if (open.kind !== 'upload') {
        await this.release(open);
        return this.ok(id);
      }
      if (open.failed !== undefined) {
        await open.upload.abandon();
        return this.fail(id, open.failed);
      }
      try {
        await open.upload.commit();
      } catch (error) {
        await open.upload.abandon();
        throw error;
      }
      if (open.mtime !== undefined) await this.files.setModifiedTime(open.path, open.mtime);
      this.ok(id);
    }, () => this.handles.filesOf(handle, 'close'));
  }

  /** SETSTAT or FSETSTAT of a file this session is writing: its size now, its time when it is committed. */
  private async changeFileBeingWritten(id: number, writing: Upload, attrs: InputAttributes): Promise<void> {
    if (attrs.size !== undefined) {
      if (writing.failed !== undefined) throw writing.failed;
      await writing.upload.truncate(attrs.size);
    }
    writing.mtime = mtimeOf(attrs) ?? writing.mtime;
    this.ok(id);
  }

  /**
   * SETSTAT of a size on a closed file (`truncate` through sshfs): a new version of the file, cut
   * or extended with zeros, committed as any write is; the same size changes nothing.
   */
  private async resize(sessionPath: string, size: number): Promise<void> {
    // Cut to nothing, the new version starts empty instead of copying the old bytes first; whether
    // that changes anything is then known from the file as it is, not from the empty copy.
    const emptying = size === 0;
    if (emptying && (await this.files.stat(sessionPath)).size === 0) return;
    const upload = await this.files.stageUpload(sessionPath, { truncate: emptying, exclusive: false, mustExist: true, append: false });
    try {
      if (!emptying && upload.size === size) return await upload.abandon();
      await upload.truncate(size);
      await upload.commit();
    } catch (error) {
      await upload.abandon();
      throw error;
    }
  }

  private async remove(id: number, path: string, type: 'file' | 'directory'): Promise<void> {
    await this.onPath(id, path, async (sessionPath) => {
      const entry = await this.files.stat(sessionPath);
      if (entry.type !== type) return this.fail(id, { code: STATUS_CODE.FAILURE, message: type === 'file' ? 'Is a folder: use rmdir.' : 'Not a folder.' });
      await this.files.delete(sessionPath, { recursive: false });
      this.ok(id);
    });
  }

  private async release(open: Open): Promise<void> {
    if (open.kind === 'reader') open.reader.close();
    else if (open.kind === 'upload') await open.upload.abandon();
  }

  /** The site path key FileOrder knows a path's file by. */
  private fileOf(path: string): string {
    return this.files.locate(this.sessionPathOf(path)).key;
  }

  private answerHandle(id: number, open: Open): boolean {
    const handle = this.ended ? undefined : this.handles.add(open);
    if (handle === undefined) {
      this.fail(id, { code: STATUS_CODE.FAILURE, message: 'Too many open files or folders in this session: close some first.' });
      return false;
    }
    this.sftp.handle(id, handle);
    return true;
  }

  /**
   * A request on a handle, in order with the other requests on its file. The handle is looked up
   * again when its turn comes: a CLOSE before it has taken it.
   */
  private async withHandle(id: number, handle: Buffer, work: (open: Open) => Promise<void>): Promise<void> {
    await this.run(id, async () => {
      const open = this.handles.get(handle);
      if (open === undefined) return this.fail(id, { code: STATUS_CODE.FAILURE, message: 'Unknown handle.' });
      await work(open);
    }, () => this.handles.filesOf(handle, 'other'));
  }

  /** A request on one path, in order with the other requests on its file. */
  private async onPath(id: number, path: string, work: (sessionPath: string, file: string) => Promise<void>): Promise<void> {
    let file = '';
    await this.run(id, () => work(this.sessionPathOf(path), file), () => {
      file = this.fileOf(path);
      return [file];
    });
  }

  /**
   * Runs one request, bounded in number, answering its failure as SFTP says it; after the earlier
   * requests on the files it concerns (`concerning`, asked once the file session is open).
   */
  private async run(id: number, work: () => Promise<void>, concerning: () => readonly string[] = () => []): Promise<void> {
    if (this.pending >= MAX_PENDING_REQUESTS) {
      this.fail(id, { code: STATUS_CODE.FAILURE, message: 'Too many requests in progress: wait for answers.' });
      return;
    }
    this.pending += 1;
    try {
      // Requests that arrive before the file session is open wait here together and go on in
      // the order they came, so FileOrder sees them in the client's order.
      await (this.opening ??= this.openFiles());
      await this.order.run(concerning(), () => this.arrived(work));
    } catch (error) {
      if (!isStatus(error) && !(error instanceof AtriumError)) this.report(error instanceof Error ? error : new Error(String(error)));
      this.fail(id, isStatus(error) ? error : statusOf(error));
    } finally {
      this.pending -= 1;
    }
  }

  private sessionPathOf(path: string): string {
    return sessionPathOf(path, this.landing);
  }

  /**
   * The file session, and the landing folder: the user's `user_root` when it is a folder the user
   * sees, else `/` (a landing folder that is gone, or out of reach, must not strand the client).
   */
  private async openFiles(): Promise<void> {
    const files = await this.filesOpening;
    if (this.userRoot !== '') {
      const root = await this.arrived(() => files.stat(this.userRoot)).catch(() => undefined);
      if (root?.type === 'directory') this.landing = `/${this.userRoot}`;
    }
    this.files = files;
  }

  /**
   * Waits while answers pile up unsent (a client that asks and does not read): READs then stop
   * producing, and with the pending-request bound the session's memory stays bounded.
   */
  private async roomToAnswer(): Promise<void> {
    const queued = this.sftp as unknown as { _buffer?: Buffer[] };
    const buffered = () => this.socket.writableLength + (queued._buffer ?? []).reduce((sum, chunk) => sum + chunk.length, 0);
    while (!this.ended && !this.socket.destroyed && buffered() > MAX_BUFFERED_OUTPUT_BYTES) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  private ok(id: number): void {
    if (!this.ended) this.sftp.status(id, STATUS_CODE.OK);
  }

  private fail(id: number, status: SftpStatus): void {
    if (!this.ended) this.sftp.status(id, status.code, status.message);
  }
}

/** The modification time (ms) among SETSTAT's attributes, if the client sent one. */
function mtimeOf(attrs: InputAttributes | undefined): number | undefined {
  const mtime = attrs?.mtime;
  if (mtime === undefined) return undefined;
  return mtime instanceof Date ? mtime.getTime() : mtime * 1000;
}

/**
 * WRITE's bytes in a form the staged upload may keep past this tick (it gathers them before
 * writing). ssh2 hands a view of memory it never reuses (a packet it decrypted in place, or one it
 * put together from several), so a view taking most of that memory is kept as it is: copying a
 * gigabyte of uploaded bytes cost a fifth of the CPU per MiB in garbage collection. A small view
 * of a larger packet is copied, or it would hold the whole packet in memory.
 */
function keepable(data: Buffer): Buffer {
  return data.length * 2 >= data.buffer.byteLength ? data : Buffer.from(data);
}

function isStatus(value: unknown): value is SftpStatus {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value && !(value instanceof Error);
}
