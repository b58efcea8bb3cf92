import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { undoOnInterrupt } from '../cleanup.js';

/** Where Debian's `openssh-server` puts OpenSSH's server, which the comparison runs unless BENCH_SSHD names another. */
const DEBIAN_SSHD = '/usr/sbin/sshd';

/** BENCH_SSHD: another `sshd`, or `none` to leave the comparison out on purpose. */
const WANTED = process.env.BENCH_SSHD ?? DEBIAN_SSHD;

/** OpenSSH's server for the comparison, or why there is none: left out on purpose, or missing. */
export type SshdChoice = { sshd: string } | { skipped: string } | { missing: string };

/**
 * The `sshd` to compare with. Debian's, when it is missing, is installed if this process may
 * (root, with apt-get: `apt-get install -y -qq openssh-server`, after an `apt-get update` if the
 * package lists do not know it yet), so a new machine measures the comparison too. Only
 * BENCH_SSHD=none leaves it out without a failure: a missing `sshd` is `missing`, which the
 * section reports as an error (the run's exit code is then 1).
 */
export async function chooseSshd(progress: (line: string) => void): Promise<SshdChoice> {
  if (WANTED === 'none') return { skipped: 'not measured: BENCH_SSHD=none' };
  if (fs.existsSync(WANTED)) return { sshd: WANTED };
  if (WANTED !== DEBIAN_SSHD) return { missing: `BENCH_SSHD=${WANTED} does not exist` };
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) return { missing: `${DEBIAN_SSHD} missing and not installable here (needs root and apt-get: apt-get install openssh-server)` };
  progress('sftp: /usr/sbin/sshd missing: installing openssh-server (apt-get)');
  const install = () => run('apt-get', ['install', '-y', '-qq', 'openssh-server'], undefined, { DEBIAN_FRONTEND: 'noninteractive' });
  try {
    await install().catch(async () => {
      await run('apt-get', ['update', '-qq'], undefined, { DEBIAN_FRONTEND: 'noninteractive' });
      await install();
    });
  } catch (error) {
    return { missing: `${DEBIAN_SSHD} missing and its installation failed: ${(error as Error).message.slice(0, 300)}` };
  }
  return fs.existsSync(DEBIAN_SSHD) ? { sshd: DEBIAN_SSHD } : { missing: `${DEBIAN_SSHD} still missing after installing openssh-server` };
}

/** OpenSSH's own server, run privately for the comparison: where it listens and how to stop it. */
export interface OpenSshServer {
  port: number;
  /** Its known_hosts line, so the client checks the host key strictly as it does Atrium's. */
  knownHosts: string;
  stop(): Promise<void>;
}

/**
 * A private `sshd` as the current user on a free loopback port, with its own configuration in
 * `dir`: a host key made there, the bench's public key as the only authorized key, the in-process
 * `internal-sftp` (so OpenSSH does the same work per byte as Atrium: one SSH connection, SFTP
 * inside), no PAM, and the client's cipher left to the same setting as against Atrium.
 */
export async function startOpenSshServer(sshd: string, dir: string, authorizedKeyFile: string): Promise<OpenSshServer> {
  const hostKey = path.join(dir, 'ssh_host_ed25519_key');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(config, [
    `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${hostKey}`, `AuthorizedKeysFile ${authorizedKeyFile}`,
    'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'PubkeyAuthentication yes', 'PermitRootLogin prohibit-password',
    'UsePAM no', 'StrictModes no', `PidFile ${path.join(dir, 'sshd.pid')}`, 'Subsystem sftp internal-sftp', 'LogLevel ERROR', '',
  ].join('\n'));
  // As root, sshd insists on its privilege-separation directory (Debian's service makes it at boot).
  if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const child = spawn(sshd, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  const forget = undoOnInterrupt(stop);
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      forget();
      await stop();
      throw new Error(`sshd did not start: ${output.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const publicHostKey = fs.readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  return {
    port,
    knownHosts: `[127.0.0.1]:${port} ${publicHostKey}`,
    stop: () => {
      forget();
      return stop();
    },
  };
}

export function run(command: string, args: string[], cwd?: string, env?: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024, env: env === undefined ? undefined : { ...process.env, ...env } }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${command} failed: ${error.message} ${stdout}${stderr}`.trim()));
      else resolve(`${stdout}${stderr}`);
    });
  });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}
