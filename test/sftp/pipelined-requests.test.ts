import { utils } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY } from '../support/test-app.js';
import { NO_ATTRIBUTES, RawSftpChannel, sftpString, uint32, uint64, type RawAnswer } from './raw-sftp-channel.js';
import { call, startSftpTestApp, type SftpConnection, type SftpTestApp } from './sftp-fixture.js';

const { OPEN_MODE, STATUS_CODE } = utils.sftp;
const PASSWORD = 'a perfectly good passphrase';
const S_IFREG = 0o100000;
/** One attribute block with permissions only, as sshfs sends with OPEN ... CREAT (mode 0644 of a regular file). */
const CREATE_MODE = Buffer.concat([uint32(0x4), uint32(S_IFREG | 0o644)]);

/**
 * Requests sent together, exactly as sshfs sends them: its requests reach the server several in
 * one piece (ssh carries them in one channel-data packet), so the server gets them in the same
 * moment. SFTP requires requests on the same file to give the results they would one at a time.
 * - Listing: sshfs sends two READDIRs on one folder handle, then four, until EOF; each must get the
 *   next page, or the folder lists every entry twice (301 files showed 602).
 * - Creating: sshfs sends OPEN with CREAT and, behind it, LSTAT of the same path; the LSTAT must
 *   see the file being written, or `echo hi > new.txt` fails and sshfs's CLOSE then commits an
 *   empty file.
 */
describe.each(testDatabaseTargets())('SFTP requests pipelined as sshfs sends them [$name]', (target) => {
  let t: SftpTestApp;
  let username: string;
  let helper: SftpConnection;
  let raw: RawSftpChannel;
  beforeAll(async () => {
    t = await startSftpTestApp(target);
    username = (await createUser(t.database.db, { password: PASSWORD, siteAdmin: true })).username;
    helper = await t.connect({ username, password: PASSWORD });
    raw = await RawSftpChannel.open(helper.client);
  });
  afterAll(async () => {
    helper.close();
    await t.close();
  });

  const other = () => t.connect({ username, password: PASSWORD });
  const handleOf = (answer: RawAnswer) => {
    expect(answer.type, JSON.stringify(answer)).toBe('handle');
    return (answer as { handle: Buffer }).handle;
  };
  const statusOf = (answer: RawAnswer) => (answer.type === 'status' ? answer.code : answer.type);
  const attrsOf = (answer: RawAnswer) => {
    expect(answer.type, JSON.stringify(answer)).toBe('attrs');
    return (answer as { attrs: { size?: number; mode?: number; mtime?: number } }).attrs;
  };

  it('lists a folder of 301 files once each when READDIRs on one handle are sent two and four at a time', async () => {
    const names = Array.from({ length: 301 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
    await call((done) => helper.sftp.mkdir('/listing', done));
    for (let i = 0; i < names.length; i += 32) {
      await Promise.all(names.slice(i, i + 32).map((name) => call((done) => helper.sftp.writeFile(`/listing/${name}`, name, done))));
    }
    const folder = handleOf(await raw.ask('OPENDIR', sftpString('/listing')));
    const listed: string[] = [];
    let ended = 0;
    for (let inFlight = 2; ended === 0; inFlight = 4) {
      const ids = raw.send(...Array.from({ length: inFlight }, () => raw.request('READDIR', sftpString(folder))));
      for (const answer of await Promise.all(ids.map((id) => raw.answer(id)))) {
        if (answer.type === 'name') listed.push(...answer.names.map((entry) => entry.filename));
        else {
          expect(statusOf(answer)).toBe(STATUS_CODE.EOF);
          ended += 1;
        }
      }
    }
    expect(listed).toHaveLength(names.length);
    expect([...listed].sort()).toEqual(names);
    expect(statusOf(await raw.ask('READDIR', sftpString(folder)))).toBe(STATUS_CODE.EOF);
    expect(statusOf(await raw.ask('CLOSE', sftpString(folder)))).toBe(STATUS_CODE.OK);
  });

  it('creates a file as sshfs does: the LSTAT sent behind OPEN ... CREAT sees the new file, FSTAT and LSTAT its size so far; others see it at CLOSE', async () => {
    await call((done) => helper.sftp.mkdir('/made', done));
    expect(statusOf(await raw.ask('LSTAT', sftpString('/made/new.txt')))).toBe(STATUS_CODE.NO_SUCH_FILE);
    const [opened, statted] = raw.send(
      raw.request('OPEN', sftpString('/made/new.txt'), uint32(OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC), CREATE_MODE),
      raw.request('LSTAT', sftpString('/made/new.txt')),
    );
    const handle = handleOf(await raw.answer(opened as number));
    const fresh = attrsOf(await raw.answer(statted as number));
    expect(fresh.size).toBe(0);
    expect((fresh.mode ?? 0) & 0o170000).toBe(S_IFREG);
    expect(attrsOf(await raw.ask('FSTAT', sftpString(handle))).size).toBe(0);
    expect(statusOf(await raw.ask('WRITE', sftpString(handle), uint64(0), sftpString('hi\n')))).toBe(STATUS_CODE.OK);
    expect(attrsOf(await raw.ask('LSTAT', sftpString('/made/new.txt'))).size).toBe(3);
    expect(attrsOf(await raw.ask('STAT', sftpString('/made/new.txt'))).size).toBe(3);

    // Another connection, and the REST API, see nothing until the file is closed.
    const elsewhere = await other();
    const code = await call((done) => elsewhere.sftp.stat('/made/new.txt', done)).then(() => 'ok', (error: { code?: number }) => error.code);
    expect(code).toBe(STATUS_CODE.NO_SUCH_FILE);
    expect((await t.api.get('/files/made/new.txt', { key: BOOTSTRAP_KEY })).status).toBe(404);

    expect(statusOf(await raw.ask('CLOSE', sftpString(handle)))).toBe(STATUS_CODE.OK);
    expect((await call<Buffer>((done) => elsewhere.sftp.readFile('/made/new.txt', done))).toString()).toBe('hi\n');
    expect((await call<{ filename: string }[]>((done) => elsewhere.sftp.readdir('/made', done))).map((entry) => entry.filename)).toEqual(['new.txt']);
    elsewhere.close();
  });

  it('an overwrite in progress shows its writer the new size and everyone else the old file until CLOSE', async () => {
    await call((done) => helper.sftp.writeFile('/overwrite.txt', 'the old contents', done));
    const [opened, statted] = raw.send(
      raw.request('OPEN', sftpString('/overwrite.txt'), uint32(OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC), CREATE_MODE),
      raw.request('LSTAT', sftpString('/overwrite.txt')),
    );
    const handle = handleOf(await raw.answer(opened as number));
    expect(attrsOf(await raw.answer(statted as number)).size).toBe(0);
    expect(statusOf(await raw.ask('WRITE', sftpString(handle), uint64(0), sftpString('new')))).toBe(STATUS_CODE.OK);
    expect(attrsOf(await raw.ask('LSTAT', sftpString('/overwrite.txt'))).size).toBe(3);
    const elsewhere = await other();
    expect((await call<Buffer>((done) => elsewhere.sftp.readFile('/overwrite.txt', done))).toString()).toBe('the old contents');
    expect(statusOf(await raw.ask('CLOSE', sftpString(handle)))).toBe(STATUS_CODE.OK);
    expect((await call<Buffer>((done) => elsewhere.sftp.readFile('/overwrite.txt', done))).toString()).toBe('new');
    elsewhere.close();
  });

  it('lists a file being written in the writing session only, and a file whose CLOSE was sent just before the listing', async () => {
    await call((done) => helper.sftp.mkdir('/listed', done));
    await call((done) => helper.sftp.writeFile('/listed/old.txt', 'old', done));
    const names = (answer: RawAnswer) => (answer.type === 'name' ? answer.names.map((entry) => [entry.filename, entry.attrs.size]) : []);
    const list = async (path: string) => {
      const folder = handleOf(await raw.ask('OPENDIR', sftpString(path)));
      const found = names(await raw.ask('READDIR', sftpString(folder)));
      expect(statusOf(await raw.ask('READDIR', sftpString(folder)))).toBe(STATUS_CODE.EOF);
      await raw.ask('CLOSE', sftpString(folder));
      return found;
    };
    const fresh = handleOf(await raw.ask('OPEN', sftpString('/listed/fresh.txt'), uint32(OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC), CREATE_MODE));
    const rewritten = handleOf(await raw.ask('OPEN', sftpString('/listed/old.txt'), uint32(OPEN_MODE.WRITE | OPEN_MODE.TRUNC), NO_ATTRIBUTES));
    await raw.ask('WRITE', sftpString(fresh), uint64(0), sftpString('fresh!'));
    await raw.ask('WRITE', sftpString(rewritten), uint64(0), sftpString('rewritten'));
    expect(await list('/listed')).toEqual([['old.txt', 9], ['fresh.txt', 6]]);
    const elsewhere = await other();
    const seen = async () => (await call<{ filename: string; attrs: { size: number } }[]>((done) => elsewhere.sftp.readdir('/listed', done)))
      .map((entry) => [entry.filename, entry.attrs.size]).sort();
    expect(await seen()).toEqual([['old.txt', 3]]);

    // As sshfs does after `echo ... > file`: the CLOSE goes out, and the listing right behind it.
    const [closed, opened] = raw.send(raw.request('CLOSE', sftpString(fresh)), raw.request('OPENDIR', sftpString('/listed')));
    const folder = handleOf(await raw.answer(opened as number));
    expect(statusOf(await raw.answer(closed as number))).toBe(STATUS_CODE.OK);
    // The listing waited for the commit, which changes the folder.
    expect(raw.answeredInOrder.indexOf(closed as number)).toBeLessThan(raw.answeredInOrder.indexOf(opened as number));
    expect(names(await raw.ask('READDIR', sftpString(folder)))).toEqual([['fresh.txt', 6], ['old.txt', 9]]);
    await raw.ask('CLOSE', sftpString(folder));
    expect(statusOf(await raw.ask('CLOSE', sftpString(rewritten)))).toBe(STATUS_CODE.OK);
    expect(await seen()).toEqual([['fresh.txt', 6], ['old.txt', 9]]);
    elsewhere.close();
  });

  it('keeps the time SETSTAT sets on the path of a file being written, as `touch` through sshfs does, once it is closed', async () => {
    const [opened, set] = raw.send(
      raw.request('OPEN', sftpString('/touched.txt'), uint32(OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC), CREATE_MODE),
      raw.request('SETSTAT', sftpString('/touched.txt'), Buffer.concat([uint32(0x8), uint32(3_000_000), uint32(3_000_000)])),
    );
    const handle = handleOf(await raw.answer(opened as number));
    expect(statusOf(await raw.answer(set as number))).toBe(STATUS_CODE.OK);
    expect(attrsOf(await raw.ask('LSTAT', sftpString('/touched.txt'))).mtime).toBe(3_000_000);
    expect(statusOf(await raw.ask('CLOSE', sftpString(handle)))).toBe(STATUS_CODE.OK);
    expect((await call<{ mtime: number; size: number }>((done) => helper.sftp.stat('/touched.txt', done)))).toMatchObject({ mtime: 3_000_000, size: 0 });
  });

  it('a create the client never closes leaves nothing behind, even after its LSTAT saw the file', async () => {
    const elsewhere = await other();
    const channel = await RawSftpChannel.open(elsewhere.client);
    const [opened, statted] = channel.send(
      channel.request('OPEN', sftpString('/abandoned.txt'), uint32(OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC), NO_ATTRIBUTES),
      channel.request('LSTAT', sftpString('/abandoned.txt')),
    );
    const handle = handleOf(await channel.answer(opened as number));
    attrsOf(await channel.answer(statted as number));
    expect(statusOf(await channel.ask('WRITE', sftpString(handle), uint64(0), sftpString('partial')))).toBe(STATUS_CODE.OK);
    elsewhere.close();
    await new Promise<void>((resolve) => elsewhere.client.once('close', () => resolve()));
    expect(statusOf(await raw.ask('LSTAT', sftpString('/abandoned.txt')))).toBe(STATUS_CODE.NO_SUCH_FILE);
    expect((await t.api.get('/files/abandoned.txt', { key: BOOTSTRAP_KEY })).status).toBe(404);
  });
});
