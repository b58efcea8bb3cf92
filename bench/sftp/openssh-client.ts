import fs from 'node:fs';
import path from 'node:path';
import { cpuMicros } from '../proc-stats.js';
import type { Transfer } from '../transfer.js';
import { run } from './openssh-server.js';

/** Where OpenSSH's `sftp` signs in: the same client settings for Atrium and for OpenSSH's server. */
export interface SftpTarget {
  port: number;
  username: string;
  identity: string;
  knownHostsFile: string;
  /** The server's process, for its CPU time (Atrium's); OpenSSH's per-connection processes are not read. */
  serverPid?: number;
}

/**
 * The cipher both servers are asked for: AES-GCM, which both do with the CPU's AES instructions.
 * Left to OpenSSH's client, it would pick ChaCha20-Poly1305 first, and the two servers could end
 * up doing different crypto.
 */
export const CIPHER = 'aes128-gcm@openssh.com';

/** `put` (upload) or `get` (download) of one file with `sftp -b`, timed from start to exit. */
export async function sftpTransfer(target: SftpTarget, direction: 'put' | 'get', local: string, remote: string, bytes: number, work: string): Promise<Transfer> {
  const batch = path.join(work, `batch-${direction}.txt`);
  fs.writeFileSync(batch, `${direction} ${direction === 'put' ? `${local} ${remote}` : `${remote} ${local}`}\n`);
  const cpuBefore = target.serverPid === undefined ? 0 : cpuMicros(target.serverPid);
  const started = performance.now();
  await run('sftp', [
    '-q', '-b', batch, '-P', String(target.port), '-i', target.identity, '-c', CIPHER,
    '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=yes',
    '-o', `UserKnownHostsFile=${target.knownHostsFile}`, '-o', 'GlobalKnownHostsFile=/dev/null',
    `${target.username}@127.0.0.1`,
  ], work);
  const seconds = (performance.now() - started) / 1000;
  if (direction === 'get' && fs.statSync(local).size !== bytes) throw new Error(`sftp get brought ${fs.statSync(local).size} of ${bytes} bytes`);
  const mib = bytes / 2 ** 20;
  const cpu = target.serverPid === undefined ? Number.NaN : (cpuMicros(target.serverPid) - cpuBefore) / 1000 / mib;
  return { bytes, seconds, mibPerSecond: mib / seconds, cpuMsPerMib: cpu };
}
