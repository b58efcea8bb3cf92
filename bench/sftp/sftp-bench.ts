import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { undoOnInterrupt } from '../cleanup.js';
import type { Timing } from '../measure.js';
import type { ResultRow } from '../run-bench.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { postgresStore, sqliteStore, type StoreName } from '../stores.js';
import { digestsComputed, type Transfer } from '../transfer.js';
import { sftpTransfer, type SftpTarget } from './openssh-client.js';
import { chooseSshd, run, startOpenSshServer, type OpenSshServer, type SshdChoice } from './openssh-server.js';
import { measureSessions } from './sftp-sessions.js';

export interface SftpBenchContext {
  database: StoreName;
  postgresUrl: string;
  /** Size of the file moved up and down (1 GiB; less in a quick run). */
  transferBytes: number;
  /** Rounds of the transfers, the two servers taking turns to go first; each figure keeps its best round. */
  transferRounds: number;
  /** Concurrent sessions of the listing-and-fetching load, and the small files in the listed folder. */
  sessions: number;
  smallFiles: number;
  timing: Timing;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
}

/** Names of the rows, which the report pairs. */
export const SFTP_ROWS = {
  atriumPut: 'SFTP put, Atrium', opensshPut: 'SFTP put, OpenSSH sshd',
  atriumGet: 'SFTP get, Atrium', opensshGet: 'SFTP get, OpenSSH sshd',
  sessions: 'SFTP sessions listing and fetching small files, Atrium',
} as const;

const BOOTSTRAP_KEY = 'sftp-bench-bootstrap-key-0123456789abcdef0123';
const USERNAME = 'sftp-bench';
const FOLDER = 'sftp-bench';

/**
 * SFTP (docs/benchmarks.md): OpenSSH's `sftp` client uploads and downloads one large file to
 * Atrium and, in the same run, to OpenSSH's own server on this machine (a private sshd with
 * internal-sftp), both signed in with the same key and asked for the same cipher; then concurrent
 * ssh2 sessions list a folder and fetch its small files from Atrium, with its CPU per operation.
 */
export async function sftpBench(ctx: SftpBenchContext, record: (row: ResultRow) => void, progress: (line: string) => void): Promise<void> {
  const { database } = ctx;
  const store = database === 'sqlite' ? await sqliteStore() : await postgresStore(ctx.postgresUrl);
  if (store === undefined) return progress(`sftp: PostgreSQL did not answer at ${ctx.postgresUrl}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-sftp-'));
  const forget = undoOnInterrupt(async () => fs.rmSync(work, { recursive: true, force: true }));
  const forgetStore = undoOnInterrupt(() => store.destroy());
  const base = { kind: 'sftp' as const, database };
  let server: ServerProcess | undefined;
  let sshd: OpenSshServer | undefined;
  try {
    server = await startServer(ATRIUM_MAIN, {
      ...store.atriumEnv, ...ctx.atriumEnv, ATRIUM_SFTP_PORT: '0', ATRIUM_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY, ATRIUM_HEADER_BRANDS: 'Service',
    }, '/health', ctx.nodeArgs);
    const port = Number(/SFTP listening at sftp:\/\/127\.0\.0\.1:(\d+)/.exec(server.startupOutput)?.[1]);
    if (!(port > 0)) throw new Error(`Atrium did not say where SFTP listens: ${server.startupOutput.slice(0, 500)}`);
    const identity = path.join(work, 'id_ed25519');
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'atrium bench', '-f', identity]);
    await prepareAtrium(server, identity, ctx.smallFiles);
    const atriumKnownHosts = path.join(work, 'known_hosts_atrium');
    const hostKey = fs.readFileSync(path.join(store.atriumEnv.ATRIUM_DATA_DIR as string, 'sftp-host-keys', 'ssh_host_ed25519_key.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
    fs.writeFileSync(atriumKnownHosts, `[127.0.0.1]:${port} ${hostKey}\n`);
    const atrium: SftpTarget = { port, username: USERNAME, identity, knownHostsFile: atriumKnownHosts, serverPid: server.pid };

    const choice = await chooseSshd(progress);
    if ('missing' in choice) progress(`sftp: ${'!'.repeat(20)} NO COMPARISON WITH OPENSSH: ${choice.missing}; set BENCH_SSHD=none to leave it out on purpose ${'!'.repeat(20)}`);
    let openssh: SftpTarget | undefined;
    if ('sshd' in choice) {
      fs.mkdirSync(path.join(work, 'sshd'));
      sshd = await startOpenSshServer(choice.sshd, path.join(work, 'sshd'), `${identity}.pub`);
      fs.writeFileSync(path.join(work, 'known_hosts_openssh'), `${sshd.knownHosts}\n`);
      openssh = { port: sshd.port, username: os.userInfo().username, identity, knownHostsFile: path.join(work, 'known_hosts_openssh') };
      fs.mkdirSync(path.join(work, 'openssh-remote'));
    }
    const digestsOf = (remote: string) => digestsComputed(`${(server as ServerProcess).baseUrl}/api/rest/v1`, remote, { 'X-ServiceAPI-Key': BOOTSTRAP_KEY });
    for (const row of await transfers(atrium, openssh, choice, work, ctx, progress, digestsOf)) record({ ...base, ...row });

    progress(`sftp: ${ctx.sessions} sessions listing and fetching for ${ctx.timing.seconds} s`);
    const measurement = await measureSessions({
      port, username: USERNAME, privateKey: fs.readFileSync(identity), folder: `${FOLDER}/small`,
      files: Array.from({ length: ctx.smallFiles }, (_, i) => smallName(i)), sessions: ctx.sessions, timing: ctx.timing, serverPid: server.pid,
    });
    const scenario = `${SFTP_ROWS.sessions} (${ctx.sessions} sessions, folder of ${ctx.smallFiles} × 4 KiB)`;
    record({ ...base, scenario, measurement, ...(measurement.failed > 0 ? { error: `${measurement.failed} operations failed under load` } : {}) });
  } catch (error) {
    // The rest of the bench goes on; the report shows what went wrong here.
    record({ ...base, scenario: 'SFTP section', error: (error as Error).message });
  } finally {
    await sshd?.stop();
    await server?.stop();
    forget();
    fs.rmSync(work, { recursive: true, force: true });
    forgetStore();
    await store.destroy();
  }
}

const smallName = (i: number) => `small-${String(i).padStart(4, '0')}.txt`;

/** A Default Workspace user with a full grant on the bench folder, the bench's key, and the small files. */
async function prepareAtrium(server: ServerProcess, identity: string, smallFiles: number): Promise<void> {
  const api = async (method: string, url: string, body?: unknown, raw?: Buffer) => {
    const response = await fetch(`${server.baseUrl}/api/rest/v1${url}`, {
      method,
      headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY, 'content-type': raw === undefined ? 'application/json' : 'application/octet-stream' },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status} ${text.slice(0, 200)}`);
    return text === '' ? undefined : JSON.parse(text) as Record<string, unknown>;
  };
  const user = await api('POST', '/users', { username: USERNAME });
  await api('POST', `/folders/${FOLDER}`);
  await api('POST', `/folders/${FOLDER}/small`);
  await api('POST', '/permissions', { path: FOLDER, user_id: user?.id, permission: 'full' });
  await api('POST', '/public_keys', { user_id: user?.id, title: 'bench', public_key: fs.readFileSync(`${identity}.pub`, 'utf8').trim() });
  for (let i = 0; i < smallFiles; i += 1) await api('PUT', `/files/${FOLDER}/small/${smallName(i)}`, undefined, randomBytes(4096));
}

/**
 * The large file up then down with each server, round after round, the servers taking turns to go
 * first; each figure keeps its best round. The local file is made once, from random bytes.
 */
async function transfers(
  atrium: SftpTarget, openssh: SftpTarget | undefined, choice: SshdChoice, work: string, ctx: SftpBenchContext, progress: (line: string) => void,
  digestsOf: (remote: string) => Promise<void>,
): Promise<Omit<ResultRow, 'kind' | 'database'>[]> {
  const size = ctx.transferBytes;
  const label = size >= 2 ** 30 ? `${size / 2 ** 30} GiB` : `${size / 2 ** 20} MiB`;
  const local = path.join(work, 'upload.bin');
  const chunk = randomBytes(2 ** 20);
  const out = fs.openSync(local, 'w');
  for (let written = 0; written < size; written += chunk.length) fs.writeSync(out, chunk, 0, Math.min(chunk.length, size - written));
  fs.closeSync(out);
  const best = new Map<string, Transfer>();
  const errors = new Map<string, string>();
  const attempt = async (name: string, go: () => Promise<Transfer>) => {
    try {
      const transfer = await go();
      progress(`sftp: ${name} (${label}): ${transfer.mibPerSecond.toFixed(0)} MiB/s`);
      const kept = best.get(name);
      if (kept === undefined || transfer.mibPerSecond > kept.mibPerSecond) best.set(name, transfer);
    } catch (error) {
      errors.set(name, (error as Error).message);
    }
  };
  const doors = [
    { target: atrium, put: SFTP_ROWS.atriumPut, get: SFTP_ROWS.atriumGet, remote: `${FOLDER}/big.bin` },
    ...(openssh === undefined ? [] : [{ target: openssh, put: SFTP_ROWS.opensshPut, get: SFTP_ROWS.opensshGet, remote: path.join(work, 'openssh-remote', 'big.bin') }]),
  ];
  const downloaded = path.join(work, 'download.bin');
  for (let round = 0; round < ctx.transferRounds; round += 1) {
    const order = round % 2 === 0 ? doors : [...doors].reverse();
    for (const door of order) {
      await attempt(door.put, () => sftpTransfer(door.target, 'put', local, door.remote, size, work));
      // Atrium computes a large file's md5, sha1 and crc32 after its upload: not while the next transfer is measured.
      if (door.target === atrium) await digestsOf(door.remote).catch((error: unknown) => errors.set(door.put, (error as Error).message));
    }
    for (const door of order) {
      await attempt(door.get, () => sftpTransfer(door.target, 'get', downloaded, door.remote, size, work));
      fs.rmSync(downloaded, { force: true });
    }
  }
  return [SFTP_ROWS.atriumPut, SFTP_ROWS.opensshPut, SFTP_ROWS.atriumGet, SFTP_ROWS.opensshGet].map((name) => {
    const scenario = `${name} (${label})`;
    // Left out on purpose is a note; missing is an error, so the run does not pass without it.
    if ('skipped' in choice && name.includes('OpenSSH')) return { scenario, skipped: choice.skipped };
    if ('missing' in choice && name.includes('OpenSSH')) return { scenario, error: `not measured: ${choice.missing}` };
    const transfer = best.get(name);
    return transfer === undefined ? { scenario, error: errors.get(name) ?? 'not run' } : { scenario, transfer };
  });
}
