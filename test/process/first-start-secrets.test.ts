import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runServer, startServer, type ServerProcess } from '../support/server-process.js';
import { cliOk } from './cli-process.js';

/** Every line of standard output, parsed: each must be one JSON log line. */
function logLines(stdout: string): Array<{ level: number; msg: string }> {
  return stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { level: number; msg: string });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !condition();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const signIn = (server: ServerProcess, username: string, password: string) =>
  fetch(`${server.baseUrl}/api/rest/v1/sessions`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }),
  }).then((r) => r.status);

const IGNORED_WARNING = /^ATRIUM_ADMIN_USERNAME, ATRIUM_ADMIN_PASSWORD ignored: bootstrap settings apply only to an empty database\. To reset a password, run `npx atrium user set-password <username>`/;

describe('first-start secrets and administrator recovery, with a server process', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-first-start-'));
  const dataDir = path.join(work, 'data');
  const running: ServerProcess[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const server = await startServer({ ATRIUM_DATA_DIR: dataDir, ...env });
    running.push(server);
    return server;
  };

  afterAll(async () => {
    for (const server of running) await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('prints the generated administrator and key once, on standard error, and never in the JSON log lines', async () => {
    const server = await start();
    await until(() => /API key: /.test(server.stderr()), 'the first-start banner');
    const password = /password: (\S+)/.exec(server.stderr())?.[1] as string;
    const key = /API key: +(\S+)/.exec(server.stderr())?.[1] as string;
    expect(server.stderr()).toContain('Atrium created its first Site Administrator. These secrets are shown only now:\n  username: admin\n');
    // The secrets printed are the real ones.
    expect(await signIn(server, 'admin', password)).toBe(201);
    const workspaces = await fetch(`${server.baseUrl}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Key': key } });
    expect(workspaces.status).toBe(200);
    // Standard output is the log stream: JSON on every line, and no secret anywhere in it.
    const lines = logLines(server.stdout());
    expect(lines.some((line) => /^Server listening at /.test(line.msg))).toBe(true);
    expect(server.stdout()).not.toContain(password);
    expect(server.stdout()).not.toContain(key);
    expect(server.stdout()).not.toContain('shown only now');
    expect(await server.stop()).toBe(0);
  });

  it('prints the generated secrets even when the first start then fails (its port taken), and they work on the next start', async () => {
    const otherDir = path.join(work, 'port-taken');
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const first = runServer({ ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: String(port), ATRIUM_DATA_DIR: otherDir });
    const failed = { code: await first.exited, stderr: first.stderr() };
    taken.close();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('These secrets are shown only now:');
    expect(failed.stderr).toMatch(/start-up failed: .*EADDRINUSE/);
    const password = /password: (\S+)/.exec(failed.stderr)?.[1] as string;
    const server = await startServer({ ATRIUM_DATA_DIR: otherDir });
    running.push(server);
    expect(await signIn(server, 'admin', password)).toBe(201);
  });

  it('says in one log line that bootstrap settings on an existing database are ignored, and points to the recovery command', async () => {
    const server = await start({ ATRIUM_ADMIN_USERNAME: 'admin', ATRIUM_ADMIN_PASSWORD: 'a forgotten password reset' });
    await until(() => logLines(server.stdout()).some((line) => IGNORED_WARNING.test(line.msg)), 'the ignored-settings line');
    const warnings = logLines(server.stdout()).filter((line) => /bootstrap settings/.test(line.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(40);
    expect(warnings[0]?.msg).toContain('"Lost the administrator password?" in README.md');
    expect(server.stdout()).not.toContain('a forgotten password reset');
    expect(server.stderr()).not.toContain('shown only now');
    // Ignored indeed: the password did not change.
    expect(await signIn(server, 'admin', 'a forgotten password reset')).toBe(401);

    // The recovery the line points to works beside the running server.
    const changed = await cliOk({ ATRIUM_DATA_DIR: dataDir }, ['user', 'set-password', 'admin', '--password-stdin'], 'a remembered password\n');
    expect(changed).toBe('password of admin changed\n');
    expect(await signIn(server, 'admin', 'a remembered password')).toBe(201);
    expect(await server.stop()).toBe(0);
  });

  it('says nothing about bootstrap settings on a restart without them', async () => {
    const server = await start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(logLines(server.stdout()).filter((line) => /bootstrap settings/.test(line.msg))).toEqual([]);
    expect(server.stderr()).toBe('');
  });
});
