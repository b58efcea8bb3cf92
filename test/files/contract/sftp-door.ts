import { utils, type Attributes, type FileEntryWithStats, type SFTPWrapper } from 'ssh2';
import type { ErrorFamily } from '../../../src/errors/atrium-error.js';
import { errors } from '../../../src/errors/catalogue.js';
import { authenticate } from '../../../src/identity/index.js';
import { call, type SftpConnection, type SftpTestApp } from '../../sftp/sftp-fixture.js';
import { assertHomeWorkspace, type DoorEntry, type FileDoor, type Who } from './file-door.js';

const { STATUS_CODE } = utils.sftp;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;

/**
 * The families each SFTP status stands for (docs/sftp.md): SSH_FX_NO_SUCH_FILE is absent or
 * invisible; SSH_FX_PERMISSION_DENIED a refusal the caller may know about; SSH_FX_FAILURE every
 * other refusal, SFTP v3 having no finer code. A failure the server could not explain is no refusal.
 */
function familiesOf(error: { code?: unknown; message?: unknown }): ErrorFamily[] | undefined {
  switch (error.code) {
    case STATUS_CODE.NO_SUCH_FILE:
      return ['not-found'];
    case STATUS_CODE.PERMISSION_DENIED:
      return ['not-authorized', 'not-authenticated'];
    case STATUS_CODE.FAILURE:
      return error.message === 'Internal server error.' ? undefined : ['bad-request', 'processing-failure', 'rate-limited', 'service-unavailable'];
    default:
      return undefined;
  }
}

/** SFTP answers these with SSH_FX_FAILURE and the REST API's message, which a client reads to know what to do. */
const FOLDER_NOT_EMPTY = errors.folderNotEmpty().message;
const PARENT_MISSING = errors.destinationParentDoesNotExist().message;

/**
 * SFTP as a door to the file contract: an ssh2 client signed in with the API key as the password
 * of the key's user (docs/sftp.md), one connection per key, landing in the key's home Workspace
 * as `/`. What SFTP v3 does not have, the adapter does as clients do: folders made on the way with
 * MKDIR, a copy read and written (folders walked), a recursive delete walked when RMDIR says the
 * folder is not empty, a path's spelling read from its folder's READDIR (STAT carries no name).
 * SFTP shows no capabilities (the mode bits show only some) and names no error type.
 */
export function sftpDoor(t: SftpTestApp): FileDoor {
  const connections = new Map<string, Promise<SftpConnection>>();
  const sftpOf = async (who: Who): Promise<SFTPWrapper> => {
    assertHomeWorkspace('SFTP', who);
    let connection = connections.get(who.key);
    if (connection === undefined) {
      connection = (async () => {
        const caller = await authenticate(t.database.db, t.clock, { apiKey: who.key, sessionId: undefined });
        if (caller.user === null) throw new Error('a site-wide key has no user to sign in to SFTP as');
        return t.connect({ username: caller.user.username, password: who.key });
      })();
      connections.set(who.key, connection);
    }
    return (await connection).sftp;
  };

  const stat = async (who: Who, path: string): Promise<DoorEntry> => {
    const sftp = await sftpOf(who);
    const attributes = await call<Attributes>((done) => sftp.stat(sftpPath(path), done));
    const resolved = (await call<string>((done) => sftp.realpath(sftpPath(path), done))).slice(1);
    return entryOf(await spelling(sftp, resolved), attributes);
  };
  const list = async (who: Who, path: string): Promise<DoorEntry[]> => {
    const sftp = await sftpOf(who);
    const listed = await call<FileEntryWithStats[]>((done) => sftp.readdir(sftpPath(path), done));
    return listed.map((entry) => entryOf(joined(path, entry.filename), entry.attrs));
  };
  /** MKDIR of each folder above `path` that STAT does not find, as `mkdir -p` does. */
  const makeParents = async (sftp: SFTPWrapper, path: string) => {
    const segments = path.split('/').slice(0, -1);
    for (let i = 1; i <= segments.length; i += 1) {
      const folder = sftpPath(segments.slice(0, i).join('/'));
      const found = await call((done) => sftp.stat(folder, done)).then(() => true, (error: { code?: number }) => {
        if (error.code === STATUS_CODE.NO_SUCH_FILE) return false;
        throw error;
      });
      if (!found) await call((done) => sftp.mkdir(folder, done));
    }
  };
  /**
   * A whole file, `wx` (an exclusive create) when it must not replace anything; tried again once
   * the folders above it are made when the server says they are missing (SSH_FX_NO_SUCH_FILE, or
   * SSH_FX_FAILURE with the REST API's "destination folder does not exist").
   */
  const writeFile = async (sftp: SFTPWrapper, path: string, content: Buffer, flag: 'w' | 'wx') => {
    const put = () => call((done) => sftp.writeFile(sftpPath(path), content, { flag }, done));
    await put().catch(async (error: { code?: number; message?: string }) => {
      if (error.code !== STATUS_CODE.NO_SUCH_FILE && error.message !== PARENT_MISSING) throw error;
      await makeParents(sftp, path);
      await put();
    });
  };
  /** A copy as an SFTP client makes one: each file read and written anew, each folder made. */
  const copy = async (sftp: SFTPWrapper, from: string, to: string): Promise<void> => {
    const source = await call<Attributes>((done) => sftp.stat(sftpPath(from), done));
    if (!isFolder(source)) {
      const content = await call<Buffer>((done) => sftp.readFile(sftpPath(from), done));
      await writeFile(sftp, to, content, 'wx');
      return;
    }
    await makeParents(sftp, to);
    await call((done) => sftp.mkdir(sftpPath(to), done));
    for (const entry of await call<FileEntryWithStats[]>((done) => sftp.readdir(sftpPath(from), done))) {
      await copy(sftp, joined(from, entry.filename), joined(to, entry.filename));
    }
  };
  const remove = async (sftp: SFTPWrapper, path: string, recursive: boolean): Promise<void> => {
    const attributes = await call<Attributes>((done) => sftp.stat(sftpPath(path), done));
    if (!isFolder(attributes)) {
      await call((done) => sftp.unlink(sftpPath(path), done));
      return;
    }
    const rmdir = () => call((done) => sftp.rmdir(sftpPath(path), done));
    await rmdir().catch(async (error: { code?: number; message?: string }) => {
      if (!recursive || error.code !== STATUS_CODE.FAILURE || error.message !== FOLDER_NOT_EMPTY) throw error;
      for (const entry of await call<FileEntryWithStats[]>((done) => sftp.readdir(sftpPath(path), done))) {
        await remove(sftp, joined(path, entry.filename), true);
      }
      await rmdir();
    });
  };

  return {
    name: 'SFTP',
    speaks: { capabilities: false, workspaceSelection: false, dotSegmentsRefused: false, emptyFolderDelete: true },
    list,
    stat,
    read: async (who, path) => {
      const sftp = await sftpOf(who);
      return (await call<Buffer>((done) => sftp.readFile(sftpPath(path), done))).toString('utf8');
    },
    async write(who, path, content) {
      await writeFile(await sftpOf(who), path, Buffer.from(content), 'w');
      return stat(who, path);
    },
    async createFolder(who, path, options) {
      const sftp = await sftpOf(who);
      if (options.mkdirParents) await makeParents(sftp, path);
      await call((done) => sftp.mkdir(sftpPath(path), done));
      return stat(who, path);
    },
    // RENAME never replaces what is at the destination (SFTP v3).
    move: async (who, from, to) => {
      const sftp = await sftpOf(who);
      await call((done) => sftp.rename(sftpPath(from), sftpPath(to), done));
    },
    copy: async (who, from, to) => copy(await sftpOf(who), from, to),
    delete: async (who, path, options) => remove(await sftpOf(who), path, options.recursive),
    refusalOf: (error) => {
      const families = typeof error === 'object' && error !== null ? familiesOf(error) : undefined;
      return families === undefined ? undefined : { families, type: undefined };
    },
    async close() {
      for (const connection of connections.values()) (await connection.catch(() => undefined))?.close();
      connections.clear();
    },
  };
}

function sftpPath(path: string): string {
  return `/${path}`;
}

function joined(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

function isFolder(attributes: Attributes): boolean {
  return (attributes.mode & S_IFMT) === S_IFDIR;
}

function entryOf(path: string, attributes: Attributes): DoorEntry {
  const folder = isFolder(attributes);
  return { path, type: folder ? 'directory' : 'file', size: folder ? null : attributes.size, capabilities: undefined };
}

/**
 * A path as its folders spell it: STAT answers no name, so each segment is read from its folder's
 * READDIR, matched without regard to case as Atrium matches paths. A folder the caller may not
 * list leaves the segment as asked.
 */
async function spelling(sftp: SFTPWrapper, path: string): Promise<string> {
  let spelled = '';
  for (const segment of path === '' ? [] : path.split('/')) {
    const listed = await call<FileEntryWithStats[]>((done) => sftp.readdir(sftpPath(spelled), done)).catch(() => []);
    const wanted = segment.normalize('NFC').toLowerCase();
    const name = listed.find((entry) => entry.filename.normalize('NFC').toLowerCase() === wanted)?.filename ?? segment;
    spelled = joined(spelled, name);
  }
  return spelled;
}
