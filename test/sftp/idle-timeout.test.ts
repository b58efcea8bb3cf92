import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser } from '../support/factories.js';
import { ManualIdleTimers } from './manual-idle-timers.js';
import { call, startSftpTestApp, type SftpConnection, type SftpTestApp } from './sftp-fixture.js';

const PASSWORD = 'a perfectly good passphrase';
/** The server's own is SFTP_IDLE_TIMEOUT_MS (15 minutes); the test moves the idle timers by hand. */
const IDLE_MS = 60_000;

/** Resolves when the server has ended the connection. */
const closing = (connection: SftpConnection) => new Promise<void>((resolve) => connection.client.once('close', () => resolve()));

/**
 * A signed-in connection that sends no request is closed after the idle timeout, so a client that
 * walked away does not hold its connection and session for ever; one that keeps working is not.
 * The idle count runs on timers the test moves: no real waiting, and the bound is exact. A request
 * answered proves the connection was still open when the timers had moved (the server ends it the
 * moment its timer runs, inside `advance`).
 */
describe.each(testDatabaseTargets())('SFTP idle timeout [$name]', (target) => {
  let t: SftpTestApp;
  let username: string;
  const timers = new ManualIdleTimers();
  beforeAll(async () => {
    t = await startSftpTestApp(target, { idleTimeoutMs: IDLE_MS, idleTimers: timers });
    username = (await createUser(t.database.db, { password: PASSWORD, siteAdmin: true })).username;
  });
  afterAll(() => t.close());

  it('closes a signed-in connection that sends no request, at the timeout and not before', async () => {
    // Two connections signed in at the same moment of the idle timers; only the second sends a request.
    const silent = await t.connect({ username, password: PASSWORD });
    const witness = await t.connect({ username, password: PASSWORD });
    let silentEnded = false;
    const silentClosed = closing(silent).then(() => { silentEnded = true; });
    timers.advance(IDLE_MS - 1);
    // A moment before the timeout both were still open: the witness's request is answered.
    expect(await call((done) => witness.sftp.realpath('.', done))).toBe('/');
    expect(silentEnded).toBe(false);
    timers.advance(1);
    await silentClosed;
    witness.close();
  });

  it('keeps a connection open while it sends requests, and closes it once they stop', async () => {
    const c = await t.connect({ username, password: PASSWORD });
    let ended = false;
    const closed = closing(c).then(() => { ended = true; });
    // Requests for three times the timeout, each within it.
    for (let i = 0; i < 6; i += 1) {
      timers.advance(IDLE_MS / 2);
      expect(await call((done) => c.sftp.realpath('.', done))).toBe('/');
    }
    expect(ended).toBe(false);
    timers.advance(IDLE_MS);
    await closed;
    // The server still serves.
    const again = await t.connect({ username, password: PASSWORD });
    expect(await call((done) => again.sftp.realpath('.', done))).toBe('/');
    again.close();
  });
});
