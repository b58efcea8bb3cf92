import { randomBytes } from 'node:crypto';
import { utils, type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantAsSite } from '../grants/grants-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { digestsOf, digestsOnArrival } from '../support/digests.js';
import { createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY } from '../support/test-app.js';
import { call, startSftpTestApp, type SftpConnection, type SftpTestApp } from './sftp-fixture.js';

const { OPEN_MODE, STATUS_CODE } = utils.sftp;
const PASSWORD = 'a perfectly good passphrase';

/** Every SFTP operation through the ssh2 client, and what the REST API and History see of it. */
describe.each(testDatabaseTargets())('SFTP operations [$name]', (target) => {
  let t: SftpTestApp;
  let admin: SftpConnection;
  let sftp: SFTPWrapper;
  beforeAll(async () => {
    t = await startSftpTestApp(target);
    const user = await createUser(t.database.db, { password: PASSWORD, siteAdmin: true, username: 'sftp-admin' });
    admin = await t.connect({ username: user.username, password: PASSWORD });
    sftp = admin.sftp;
  });
  afterAll(async () => {
    admin.close();
    await t.close();
  });

  const rest = (path: string) => t.api.get(`/files/${path}`, { key: BOOTSTRAP_KEY });
  const restList = async (path: string) => ((await t.api.get(`/folders/${path}`, { key: BOOTSTRAP_KEY })).body as { path: string; size: number | null }[]);
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: { code?: number }) => error.code);
  const open = (path: string, flags: number) => call<Buffer>((done) => sftp.open(path, flags, done));
  const write = (handle: Buffer, data: string, position: number) => call((done) => sftp.write(handle, Buffer.from(data), 0, data.length, position, done));
  const close = (handle: Buffer) => call((done) => sftp.close(handle, done));
  const read = (path: string) => call<Buffer>((done) => sftp.readFile(path, done)).then((bytes) => bytes.toString());

  it('writes, reads, stats and lists, with the type bits and an ls -l line', async () => {
    await call((done) => sftp.mkdir('/ops', done));
    await call((done) => sftp.writeFile('/ops/a.txt', 'hello world', done));
    expect(await read('/ops/a.txt')).toBe('hello world');
    const stats = await call<{ size: number; isFile(): boolean; isDirectory(): boolean }>((done) => sftp.stat('/ops/a.txt', done));
    expect(stats.isFile()).toBe(true);
    expect(stats.size).toBe(11);
    expect((await call<{ isDirectory(): boolean }>((done) => sftp.lstat('/ops', done))).isDirectory()).toBe(true);
    const listed = await call<{ filename: string; longname: string }[]>((done) => sftp.readdir('/ops', done));
    expect(listed.map((entry) => entry.filename)).toEqual(['a.txt']);
    expect(listed[0]?.longname).toMatch(/^-rw-------\s+1 atrium\s+atrium\s+11 \w{3} [ \d]\d .* a\.txt$/);
    expect(await call((done) => sftp.realpath('/ops/../ops/./a.txt', done))).toBe('/ops/a.txt');
    expect(await call((done) => sftp.realpath('/..', done))).toBe('/');
    expect(await restList('ops')).toEqual([expect.objectContaining({ path: 'ops/a.txt', size: 11 })]);
  });

  it('records the upload as create then update, and a download once, with interface sftp', async () => {
    await call((done) => sftp.writeFile('/recorded.txt', 'one', done));
    await call((done) => sftp.writeFile('/recorded.txt', 'two', done));
    await read('/recorded.txt');
    const rows = await t.database.db.selectFrom('history').selectAll().where('path', '=', 'recorded.txt').orderBy('id').execute();
    expect(rows.map((row) => [row.action, row.interface])).toEqual([['create', 'sftp'], ['update', 'sftp'], ['read', 'sftp']]);
  });

  it('takes writes out of order and shows the file to others only when it is closed', async () => {
    const handle = await open('/pipelined.bin', OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC);
    await write(handle, 'world', 6);
    await write(handle, 'hello ', 0);
    // The writing session sees the file being written; the REST API nothing until it is closed.
    expect((await call<{ size: number }>((done) => sftp.stat('/pipelined.bin', done))).size).toBe(11);
    expect((await rest('pipelined.bin')).status).toBe(404);
    const fstat = await call<{ size: number }>((done) => sftp.fstat(handle, done));
    expect(fstat.size).toBe(11);
    await close(handle);
    expect(await read('/pipelined.bin')).toBe('hello world');
    expect((await rest('pipelined.bin')).body).toMatchObject({ size: 11 });
  });

  it('keeps every digest of a large file uploaded in order and of one written backwards (the SHA-256 hashed on the hashing thread, the rest after the upload)', async () => {
    // Past one shared block (a MiB) and far past what is hashed on the event loop (128 KiB).
    const data = randomBytes(1024 * 1024 + 4321);
    await call((done) => sftp.writeFile('/digests-in-order.bin', data, done));
    const handle = await open('/digests-backwards.bin', OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC);
    const chunk = 32768;
    const offsets = Array.from({ length: Math.ceil(data.length / chunk) }, (_, i) => i * chunk).reverse();
    // Sent together, so they arrive pipelined, last part first.
    await Promise.all(offsets.map((offset) => call((done) => sftp.write(handle, data, offset, Math.min(chunk, data.length - offset), offset, done))));
    await close(handle);
    for (const path of ['digests-in-order.bin', 'digests-backwards.bin']) {
      expect((await rest(path)).body, path).toMatchObject({ size: data.length, ...digestsOnArrival(data) });
    }
    // The others come from the job that follows a large upload (file-digests.test.ts).
    while ((await t.core.jobs.runDue()) > 0) { /* until none is due */ }
    for (const path of ['digests-in-order.bin', 'digests-backwards.bin']) {
      expect((await rest(path)).body, path).toMatchObject({ size: data.length, ...digestsOf(data) });
    }
  });

  it('resumes an upload by appending to the file as it is (reput), and reads from any offset', async () => {
    await call((done) => sftp.writeFile('/resumed.txt', 'hello', done));
    const handle = await open('/resumed.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.APPEND);
    await write(handle, ' world', 5);
    await close(handle);
    expect(await read('/resumed.txt')).toBe('hello world');
    const reading = await open('/resumed.txt', OPEN_MODE.READ);
    const buffer = Buffer.alloc(5);
    const got = await call<number>((done) => sftp.read(reading, buffer, 0, 5, 6, (error, bytes) => done(error, bytes)));
    expect(buffer.subarray(0, got).toString()).toBe('world');
    // Past the end is EOF, which the client reports as no bytes.
    expect(await call<number>((done) => sftp.read(reading, buffer, 0, 5, 11, (error, bytes) => done(error, bytes)))).toBe(0);
    await close(reading);
  });

  it('keeps exclusive creation and open-without-create honest, and an untouched open changes nothing', async () => {
    await call((done) => sftp.writeFile('/exists.txt', 'keep me', done));
    expect(await codeOf(open('/exists.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.EXCL))).toBe(STATUS_CODE.FAILURE);
    expect(await codeOf(open('/missing.txt', OPEN_MODE.WRITE))).toBe(STATUS_CODE.NO_SUCH_FILE);
    const before = await t.database.db.selectFrom('history').select('id').execute();
    await close(await open('/exists.txt', OPEN_MODE.WRITE));
    expect(await t.database.db.selectFrom('history').select('id').execute()).toHaveLength(before.length);
    expect(await read('/exists.txt')).toBe('keep me');
  });

  it('makes and removes folders and files, each with the right failure for the wrong kind', async () => {
    await call((done) => sftp.mkdir('/tree', done));
    await call((done) => sftp.mkdir('/tree/inner', done));
    await call((done) => sftp.writeFile('/tree/file.txt', 'x', done));
    expect(await codeOf(call((done) => sftp.mkdir('/tree', done)))).toBe(STATUS_CODE.FAILURE);
    expect(await codeOf(call((done) => sftp.mkdir('/nowhere/deep', done)))).not.toBe('ok');
    expect(await codeOf(call((done) => sftp.rmdir('/tree', done)))).toBe(STATUS_CODE.FAILURE);
    expect(await codeOf(call((done) => sftp.unlink('/tree/inner', done)))).toBe(STATUS_CODE.FAILURE);
    expect(await codeOf(call((done) => sftp.rmdir('/tree/file.txt', done)))).toBe(STATUS_CODE.FAILURE);
    await call((done) => sftp.unlink('/tree/file.txt', done));
    await call((done) => sftp.rmdir('/tree/inner', done));
    await call((done) => sftp.rmdir('/tree', done));
    expect(await codeOf(call((done) => sftp.stat('/tree', done)))).toBe(STATUS_CODE.NO_SUCH_FILE);
    expect(await codeOf(call((done) => sftp.unlink('/tree', done)))).toBe(STATUS_CODE.NO_SUCH_FILE);
  });

  it('renames with RENAME (never over an existing entry) and posix-rename (replacing a file, as rename(2))', async () => {
    await call((done) => sftp.writeFile('/r1.txt', 'one', done));
    await call((done) => sftp.writeFile('/r2.txt', 'two', done));
    expect(await codeOf(call((done) => sftp.rename('/r1.txt', '/r2.txt', done)))).toBe(STATUS_CODE.FAILURE);
    await call((done) => sftp.rename('/r1.txt', '/r3.txt', done));
    await call((done) => sftp.ext_openssh_rename('/r3.txt', '/r4.txt', done));
    expect(await read('/r4.txt')).toBe('one');
    expect(await codeOf(call((done) => sftp.stat('/r1.txt', done)))).toBe(STATUS_CODE.NO_SUCH_FILE);
    await call((done) => sftp.ext_openssh_rename('/r4.txt', '/r2.txt', done));
    expect(await read('/r2.txt')).toBe('one');
    await call((done) => sftp.mkdir('/r-folder', done));
    expect(await codeOf(call((done) => sftp.ext_openssh_rename('/r2.txt', '/r-folder', done)))).toBe(STATUS_CODE.FAILURE);
    const moves = await t.database.db.selectFrom('history').selectAll().where('action', '=', 'move').where('interface', '=', 'sftp').execute();
    expect(moves.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the modification time SETSTAT and FSETSTAT give, ignores other attributes, answers statvfs, and refuses symbolic links', async () => {
    await call((done) => sftp.writeFile('/attrs.txt', 'x', done));
    await call((done) => sftp.setstat('/attrs.txt', { mode: 0o600, mtime: 1_000_000, atime: 1_000_000 }, done));
    expect((await call<{ mtime: number }>((done) => sftp.stat('/attrs.txt', done))).mtime).toBe(1_000_000);
    expect((await rest('attrs.txt')).body).toMatchObject({ mtime: '1970-01-12T13:46:40Z', provided_mtime: '1970-01-12T13:46:40Z' });
    // As `put -p` does: the time is set on the open file, and kept when it is committed.
    const handle = await open('/timed.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC);
    await write(handle, 'timed', 0);
    await call((done) => sftp.futimes(handle, 2_000_000, 2_000_000, done));
    await close(handle);
    expect((await call<{ mtime: number }>((done) => sftp.stat('/timed.txt', done))).mtime).toBe(2_000_000);
    // The REST API shows the client's time as provided_mtime, and the digests of what was written.
    expect((await rest('timed.txt')).body).toMatchObject({ provided_mtime: '1970-01-24T03:33:20Z', ...digestsOf('timed') });
    expect(await codeOf(call((done) => sftp.setstat('/absent.txt', { mode: 0o600 }, done)))).toBe(STATUS_CODE.NO_SUCH_FILE);
    const vfs = await call<{ f_bsize: number; f_bavail: number }>((done) => sftp.ext_openssh_statvfs('/', done));
    expect(vfs.f_bsize).toBe(4096);
    expect(vfs.f_bavail).toBeGreaterThan(0);
    expect(await codeOf(call((done) => sftp.symlink('/attrs.txt', '/link', done)))).toBe(STATUS_CODE.OP_UNSUPPORTED);
    expect(await codeOf(call((done) => sftp.readlink('/attrs.txt', done)))).toBe(STATUS_CODE.OP_UNSUPPORTED);
  });

  it('truncates with a size in SETSTAT (a closed file: a new version) and FSETSTAT (a file being written), and extends with zeros', async () => {
    await call((done) => sftp.writeFile('/cut.txt', 'xyzxyzxyz', done));
    await call((done) => sftp.setstat('/cut.txt', { size: 3 }, done));
    expect(await read('/cut.txt')).toBe('xyz');
    expect((await rest('cut.txt')).body).toMatchObject({ size: 3 });
    await call((done) => sftp.setstat('/cut.txt', { size: 5 }, done));
    expect(await read('/cut.txt')).toBe('xyz\0\0');
    // The same size again changes nothing, and records nothing.
    const before = await t.database.db.selectFrom('history').select('id').where('path', '=', 'cut.txt').execute();
    await call((done) => sftp.setstat('/cut.txt', { size: 5 }, done));
    expect(await t.database.db.selectFrom('history').select('id').where('path', '=', 'cut.txt').execute()).toHaveLength(before.length);
    // Cut to nothing (`truncate -s 0`): a new, empty version; once empty, the same changes nothing.
    await call((done) => sftp.setstat('/cut.txt', { size: 0 }, done));
    expect(await read('/cut.txt')).toBe('');
    expect((await rest('cut.txt')).body).toMatchObject({ size: 0 });
    const emptied = await t.database.db.selectFrom('history').select('id').where('path', '=', 'cut.txt').execute();
    expect(emptied).toHaveLength(before.length + 1);
    await call((done) => sftp.setstat('/cut.txt', { size: 0 }, done));
    expect(await t.database.db.selectFrom('history').select('id').where('path', '=', 'cut.txt').execute()).toHaveLength(emptied.length);
    await call((done) => sftp.writeFile('/cut.txt', 'xyz\0\0', done));

    const handle = await open('/cut.txt', OPEN_MODE.WRITE);
    await write(handle, 'abcdefgh', 0);
    await call((done) => sftp.fsetstat(handle, { size: 2 }, done));
    expect((await call<{ size: number }>((done) => sftp.fstat(handle, done))).size).toBe(2);
    await close(handle);
    expect(await read('/cut.txt')).toBe('ab');
    expect(await codeOf(call((done) => sftp.setstat('/absent.txt', { size: 1 }, done)))).toBe(STATUS_CODE.NO_SUCH_FILE);
    const reading = await open('/cut.txt', OPEN_MODE.READ);
    expect(await codeOf(call((done) => sftp.fsetstat(reading, { size: 0 }, done)))).toBe(STATUS_CODE.FAILURE);
    await close(reading);
    expect(await read('/cut.txt')).toBe('ab');
  });

  it('reads back what was written on a file opened to read and write, and refuses to read a file opened only to write', async () => {
    const both = await open('/both.txt', OPEN_MODE.READ | OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC);
    await write(both, 'abcdef', 0);
    const buffer = Buffer.alloc(10);
    const got = await call<number>((done) => sftp.read(both, buffer, 0, 10, 2, (error, bytes) => done(error, bytes)));
    expect(buffer.subarray(0, got).toString()).toBe('cdef');
    expect(await call<number>((done) => sftp.read(both, buffer, 0, 10, 6, (error, bytes) => done(error, bytes)))).toBe(0);
    await close(both);
    expect(await read('/both.txt')).toBe('abcdef');
    const writeOnly = await open('/both.txt', OPEN_MODE.WRITE);
    expect(await codeOf(call((done) => sftp.read(writeOnly, buffer, 0, 10, 0, done)))).toBe(STATUS_CODE.FAILURE);
    await close(writeOnly);
  });

  it('reads a file it is still writing, opened again to read, as written so far, and as committed once that writing is closed', async () => {
    await call((done) => sftp.writeFile('/again.txt', 'hi\nmore\n', done));
    // sshfs's order for `echo short > again.txt; cat again.txt`: the read's OPEN before the write's CLOSE.
    const writing = await open('/again.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC);
    await write(writing, 'short', 0);
    const reading = await open('/again.txt', OPEN_MODE.READ);
    const readAt = async (offset: number) => {
      const buffer = Buffer.alloc(20);
      const got = await call<number>((done) => sftp.read(reading, buffer, 0, 20, offset, (error, bytes) => done(error, bytes)));
      return buffer.subarray(0, got).toString();
    };
    expect(await readAt(0)).toBe('short');
    expect((await call<{ size: number }>((done) => sftp.fstat(reading, done))).size).toBe(5);
    // Others still see the file as it was.
    expect((await rest('again.txt')).body).toMatchObject({ size: 8 });
    await close(writing);
    expect(await readAt(2)).toBe('ort');
    await close(reading);
    expect(await read('/again.txt')).toBe('short');
  });

  it('pages a large folder through READDIR until EOF', async () => {
    const count = 700;
    await call((done) => sftp.mkdir('/many', done));
    const rows = Array.from({ length: count }, (_, i) => `many/f${String(i).padStart(4, '0')}.txt`);
    // Made straight in the table: the listing, not 700 uploads, is under test.
    const now = Date.now();
    await t.database.db.insertInto('entries').values(rows.map((path) => ({
      path, path_key: path, parent_key: 'many', type: 'file', size: 0, storage_key: null, sha256: null, created_at: now, mtime: now,
    })) as never).execute().catch(async () => {
      for (const path of rows) await call((done) => sftp.writeFile(`/${path}`, '', done));
    });
    const listed = await call<{ filename: string }[]>((done) => sftp.readdir('/many', done));
    expect(listed).toHaveLength(count);
    expect(new Set(listed.map((entry) => entry.filename)).size).toBe(count);
  });

  it('answers the invisible as absent and a refusal the user may know about as permission denied', async () => {
    await call((done) => sftp.mkdir('/shared', done));
    await call((done) => sftp.writeFile('/shared/doc.txt', 'shared', done));
    await call((done) => sftp.mkdir('/secret', done));
    await call((done) => sftp.writeFile('/secret/hidden.txt', 'hidden', done));
    const reader = await createUser(t.database.db, { password: PASSWORD });
    await grantAsSite(t, { path: 'shared', user_id: reader.id, permission: 'readonly' });
    const c = await t.connect({ username: reader.username, password: PASSWORD });
    try {
      const mine = c.sftp;
      const code = (promise: Promise<unknown>) => codeOf(promise);
      expect(await new Promise((resolve) => mine.readFile('/shared/doc.txt', (error, bytes) => resolve(error ?? bytes.toString())))).toBe('shared');
      expect(await code(call((done) => mine.stat('/secret/hidden.txt', done)))).toBe(STATUS_CODE.NO_SUCH_FILE);
      expect(await code(call((done) => mine.stat('/secret/absent.txt', done)))).toBe(STATUS_CODE.NO_SUCH_FILE);
      expect(await code(call((done) => mine.readdir('/secret', done)))).toBe(STATUS_CODE.NO_SUCH_FILE);
      expect(await code(call((done) => mine.writeFile('/shared/new.txt', 'no', done)))).toBe(STATUS_CODE.PERMISSION_DENIED);
      expect(await code(call((done) => mine.unlink('/shared/doc.txt', done)))).toBe(STATUS_CODE.PERMISSION_DENIED);
      expect(await code(call((done) => mine.setstat('/shared/doc.txt', { mtime: 5, atime: 5 }, done)))).toBe(STATUS_CODE.PERMISSION_DENIED);
      expect(await code(call((done) => mine.writeFile('/secret/new.txt', 'no', done)))).toBe(STATUS_CODE.NO_SUCH_FILE);
    } finally {
      c.close();
    }
  });
});
