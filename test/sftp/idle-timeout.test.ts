import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser } from '../support/factories.js';
import { call, startSftpTestApp, type SftpConnection, type SftpTestApp } from './sftp-fixture.js';

const PASSWORD = 'a perfectly good passphrase';
/**
 * Short, so the test waits for it; the server's own is SFTP_IDLE_TIMEOUT_MS (15 minutes). Long
 * enough that a machine busy with other work does not stall the test's own requests past it.
 */
const IDLE_MS = 1_000;

/** When the server ends the connection, in ms from `since`. */
const closedAfter = (connection: SftpConnection, since: number) =>
  new Promise<number>((resolve) => connection.client.once('close', () => resolve(Date.now() - since)));

/**
 * A signed-in connection that sends no request is closed after the idle timeout, so a client that
 * walked away does not hold its connection and session for ever; one that keeps working is not.
 */
describe.each(testDatabaseTargets())('SFTP idle timeout [$name]', (target) => {
  let t: SftpTestApp;
  let username: string;
  beforeAll(async () => {
    t = await startSftpTestApp(target, { idleTimeoutMs: IDLE_MS });
    username = (await createUser(t.database.db, { password: PASSWORD, siteAdmin: true })).username;
  });
  afterAll(() => t.close());

  it('closes a signed-in connection that sends no request', async () => {
    // Measured from before connecting: the server's idle clock starts at sign-in, after this.
    const connecting = Date.now();
    const c = await t.connect({ username, password: PASSWORD });
    const lifetime = await closedAfter(c, connecting);
    expect(lifetime).toBeGreaterThanOrEqual(IDLE_MS - 20);
    // Closed because it was idle, not at some later end: well before the test's own timeout.
    expect(lifetime).toBeLessThan(IDLE_MS + 8_000);
  });

  it('keeps a connection open while it sends requests, and closes it once they stop', async () => {
    const c = await t.connect({ username, password: PASSWORD });
    let closed = false;
    c.client.once('close', () => { closed = true; });
    const started = Date.now();
    // Requests for three times the timeout, each well within it.
    let lastSent = started;
    while (Date.now() - started < 3 * IDLE_MS) {
      lastSent = Date.now();
      expect(await call((done) => c.sftp.realpath('.', done))).toBe('/');
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 6));
    }
    expect(closed).toBe(false);
    // The server saw the last request after it was sent: its idle clock restarted after lastSent.
    expect(await closedAfter(c, lastSent)).toBeGreaterThanOrEqual(IDLE_MS - 20);
    // The server still serves.
    const again = await t.connect({ username, password: PASSWORD });
    expect(await call((done) => again.sftp.realpath('.', done))).toBe('/');
    again.close();
  });
});
