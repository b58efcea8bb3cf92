import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { utils, type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HANDLES_PER_SESSION } from '../../src/sftp/handles.js';
import { MAX_CHANNELS_PER_CONNECTION, MAX_READ_BYTES } from '../../src/sftp/limits.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY } from '../support/test-app.js';
import { call, startSftpTestApp, type SftpTestApp } from './sftp-fixture.js';

const { OPEN_MODE, STATUS_CODE } = utils.sftp;
const PASSWORD = 'a perfectly good passphrase';
const DEADLINE_MS = 1_500;
const PER_ADDRESS = 4;

/**
 * Clients that try to tie the server up: connections that never sign in, huge READ and WRITE
 * lengths, handles never closed, a disconnect in the middle of a write, requests for a shell or
 * a tunnel. After each the server still serves, and nothing partial is ever visible.
 */
describe.each(testDatabaseTargets())('SFTP hostile clients [$name]', (target) => {
  let t: SftpTestApp;
  let username: string;
  beforeAll(async () => {
    t = await startSftpTestApp(target, { limits: { perAddress: PER_ADDRESS, deadlineMs: DEADLINE_MS } });
    username = (await createUser(t.database.db, { password: PASSWORD, siteAdmin: true })).username;
  });
  afterAll(() => t.close());

  const signIn = () => t.connect({ username, password: PASSWORD });
  const stillServes = async () => {
    const c = await signIn();
    expect(await call((done) => c.sftp.realpath('.', done))).toBe('/');
    c.close();
  };
  /** A TCP connection that sends nothing; resolves when the server closes it. */
  const silent = () => {
    const socket = net.connect(t.sftpServer.port, '127.0.0.1');
    socket.on('error', () => undefined);
    // Reads (and drops) the server's greeting, so that its closing is seen.
    socket.resume();
    const closed = new Promise<number>((resolve) => {
      const opened = Date.now();
      socket.once('close', () => resolve(Date.now() - opened));
    });
    return { socket, closed };
  };

  it('closes connections past the per-address limit at once, and silent ones at the sign-in deadline', async () => {
    const held = Array.from({ length: PER_ADDRESS }, silent);
    // Real sockets against the server's real deadline timer (what is tested): the held ones must be
    // accepted before the extra one arrives.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const extra = silent();
    expect(await extra.closed).toBeLessThan(DEADLINE_MS / 2);
    const lifetimes = await Promise.all(held.map((connection) => connection.closed));
    for (const lifetime of lifetimes) expect(lifetime).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
    await stillServes();
  });

  it('a signed-in connection is no longer held to the deadline', async () => {
    const c = await signIn();
    // Past the server's own sign-in deadline (a short one for this test), on its real timer.
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS + 300));
    expect(await call((done) => c.sftp.realpath('.', done))).toBe('/');
    c.close();
  });

  it('answers a huge READ with at most its own limit, and ends the session on a huge WRITE packet', async () => {
    const c = await signIn();
    await call((done) => c.sftp.writeFile('/big.bin', Buffer.alloc(MAX_READ_BYTES * 3, 7), done));
    const handle = await call<Buffer>((done) => c.sftp.open('/big.bin', 'r', done));
    // The client would split the request itself; its limit is lifted to send one huge READ.
    (c.sftp as unknown as { _maxReadLen: number })._maxReadLen = 64 * 1024 * 1024;
    const buffer = Buffer.alloc(64 * 1024 * 1024);
    const got = await call<number>((done) => c.sftp.read(handle, buffer, 0, buffer.length, 0, (error, bytes) => done(error, bytes)));
    expect(got).toBeGreaterThan(0);
    expect(got).toBeLessThanOrEqual(MAX_READ_BYTES);
    // A WRITE packet past SFTP's 256 KiB packet limit is a protocol error: the session ends.
    (c.sftp as unknown as { _maxWriteLen: number })._maxWriteLen = 8 * 1024 * 1024;
    const writing = await call<Buffer>((done) => c.sftp.open('/huge-write.bin', 'w', done));
    const outcome = await new Promise((resolve) => {
      c.sftp.write(writing, Buffer.alloc(4 * 1024 * 1024), 0, 4 * 1024 * 1024, 0, (error) => resolve(error ?? 'ok'));
      c.client.once('close', () => resolve('closed'));
    });
    expect(outcome).not.toBe('ok');
    c.close();
    expect((await t.api.get('/files/huge-write.bin', { key: BOOTSTRAP_KEY })).status).toBe(404);
    await stillServes();
  });

  it('bounds the handles a session may hold open', async () => {
    const c = await signIn();
    await call((done) => c.sftp.writeFile('/handles.txt', 'x', done));
    const handles: Buffer[] = [];
    for (let i = 0; i < MAX_HANDLES_PER_SESSION; i += 1) handles.push(await call<Buffer>((done) => c.sftp.open('/handles.txt', 'r', done)));
    const refused = await call((done) => c.sftp.open('/handles.txt', 'r', done)).then(() => 'ok', (error: { code?: number }) => error.code);
    expect(refused).toBe(STATUS_CODE.FAILURE);
    await call((done) => c.sftp.close(handles[0] as Buffer, done));
    await call<Buffer>((done) => c.sftp.open('/handles.txt', 'r', done));
    c.close();
    await stillServes();
  });

  it('bounds the SFTP channels one connection may hold open: the next session channel is refused until one closes', async () => {
    const c = await signIn();
    const openChannel = () => call<SFTPWrapper>((done) => c.client.sftp(done));
    // The connection's own first channel is one of them.
    const channels = [c.sftp];
    for (let i = 1; i < MAX_CHANNELS_PER_CONNECTION; i += 1) channels.push(await openChannel());
    const refused = await openChannel().then(() => 'opened', (error: Error) => error.message);
    expect(refused).toMatch(/open failure|refused|prohibited/i);
    // Every channel still works, each with its own handles.
    for (const channel of channels) expect(await call((done) => channel.realpath('.', done))).toBe('/');
    const closing = channels.pop() as SFTPWrapper;
    await new Promise((resolve) => {
      closing.once('close', resolve);
      closing.end();
    });
    const again = await openChannel();
    expect(await call((done) => again.realpath('.', done))).toBe('/');
    expect(await openChannel().then(() => 'opened', () => 'refused')).toBe('refused');
    c.close();
    await stillServes();
  });

  it('a disconnect in the middle of a write leaves nothing visible and nothing stored', async () => {
    const c = await signIn();
    const handle = await call<Buffer>((done) => c.sftp.open('/cut.bin', OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC, done));
    const chunk = Buffer.alloc(32 * 1024, 1);
    for (let i = 0; i < 16; i += 1) await call((done) => c.sftp.write(handle, chunk, 0, chunk.length, i * chunk.length, done));
    c.client.end();
    // The server learns of the cut from its socket; nothing to poll for, since the test checks that
    // nothing appears.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await t.api.get('/files/cut.bin', { key: BOOTSTRAP_KEY })).status).toBe(404);
    const tmp = path.join(t.dataDir, 'files', 'tmp');
    expect(await fs.readdir(tmp).catch(() => [])).toEqual([]);
    const again = await signIn();
    const code = await call((done) => again.sftp.stat('/cut.bin', done)).then(() => 'ok', (error: { code?: number }) => error.code);
    expect(code).toBe(STATUS_CODE.NO_SUCH_FILE);
    again.close();
  });

  it('refuses a shell, a command and port forwarding', async () => {
    const c = await signIn();
    const refused = (run: (done: (error: Error | undefined) => void) => void) => new Promise((resolve) => run((error) => resolve(error !== undefined)));
    expect(await refused((done) => c.client.shell((error) => done(error ?? undefined)))).toBe(true);
    expect(await refused((done) => c.client.exec('id', (error) => done(error ?? undefined)))).toBe(true);
    expect(await refused((done) => c.client.forwardOut('127.0.0.1', 1, '127.0.0.1', t.sftpServer.port, (error) => done(error ?? undefined)))).toBe(true);
    c.close();
    await stillServes();
  });
});
