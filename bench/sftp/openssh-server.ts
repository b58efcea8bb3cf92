import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { undoOnInterrupt } from '../cleanup.js';

/** OpenSSH's server; BENCH_SSHD points elsewhere (a path that does not exist shows the report without it). */
export const SSHD = process.env.BENCH_SSHD ?? '/usr/sbin/sshd';

/** OpenSSH's own server, run privately for the comparison: where it listens and how to stop it. */
export interface OpenSshServer {
  port: number;
  /** Its known_hosts line, so the client checks the host key strictly as it does Atrium's. */
  knownHosts: string;
  stop(): Promise<void>;
}

/** Why OpenSSH's server cannot be run here, or undefined when it can. */
export function sshdMissing(): string | undefined {
  return fs.existsSync(SSHD) ? undefined : 'sshd missing';
}

/**
 * A private `sshd` as the current user on a free loopback port, with its own configuration in
 * `dir`: a host key made there, the bench's public key as the only authorized key, the in-process
 * `internal-sftp` (so OpenSSH does the same work per byte as Atrium: one SSH connection, SFTP
 * inside), no PAM, and the client's cipher left to the same setting as against Atrium.
 */
export async function startOpenSshServer(dir: string, authorizedKeyFile: string): Promise<OpenSshServer> {
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
  const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
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

export function run(command: string, args: string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
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
