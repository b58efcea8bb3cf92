import { Client, type FileEntryWithStats, type SFTPWrapper } from 'ssh2';
import type { Measurement, Timing } from '../measure.js';
import { cpuMicros, rssBytes } from '../proc-stats.js';

export interface SessionsLoad {
  port: number;
  username: string;
  privateKey: Buffer;
  /** The folder listed, holding `files` small files. */
  folder: string;
  files: string[];
  sessions: number;
  timing: Timing;
  serverPid: number;
}

/**
 * `sessions` SFTP sessions (the ssh2 client), signed in before the clock starts, each in a loop:
 * list the folder, then fetch one of its files whole (open, read, close), the next file each time.
 * An operation is one listing or one fetch; the server's CPU is read from /proc around the loaded
 * seconds, after a warm-up. Latency is per operation.
 */
export async function measureSessions(load: SessionsLoad): Promise<Measurement> {
  const connections = await Promise.all(Array.from({ length: load.sessions }, () => connect(load)));
  try {
    if (load.timing.warmupSeconds > 0) await loop(connections, load, load.timing.warmupSeconds);
    const cpuBefore = cpuMicros(load.serverPid);
    const started = performance.now();
    const { latencies, failed } = await loop(connections, load, load.timing.seconds);
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuMicros(load.serverPid) - cpuBefore;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    const requests = latencies.length;
    return {
      requestsPerSecond: requests / seconds, p50Ms: at(0.5), p99Ms: at(0.99),
      cpuMicrosPerRequest: requests === 0 ? 0 : cpu / requests, requestsPerCpuSecond: cpu === 0 ? 0 : requests / (cpu / 1e6),
      requests, failed, rssMb: rssBytes(load.serverPid) / 2 ** 20,
    };
  } finally {
    for (const { client } of connections) client.end();
  }
}

async function loop(connections: { sftp: SFTPWrapper }[], load: SessionsLoad, seconds: number): Promise<{ latencies: number[]; failed: number }> {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let failed = 0;
  await Promise.all(connections.map(async ({ sftp }, index) => {
    let next = index;
    while (performance.now() < until) {
      for (const operation of [() => list(sftp, load.folder, load.files.length), () => fetchWhole(sftp, `${load.folder}/${load.files[next++ % load.files.length]}`)]) {
        const started = performance.now();
        try {
          await operation();
          latencies.push(performance.now() - started);
        } catch {
          failed += 1;
        }
      }
    }
  }));
  return { latencies, failed };
}

function connect(load: SessionsLoad): Promise<{ client: Client; sftp: SFTPWrapper }> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.once('error', reject);
    client.once('ready', () => client.sftp((error, sftp) => (error ? reject(error) : resolve({ client, sftp }))));
    client.connect({ host: '127.0.0.1', port: load.port, username: load.username, privateKey: load.privateKey, readyTimeout: 30_000 });
  });
}

/** OPENDIR, READDIR until the end, CLOSE; fails unless every file is there. */
function list(sftp: SFTPWrapper, folder: string, expected: number): Promise<void> {
  return new Promise((resolve, reject) => {
    sftp.readdir(folder, (error: Error | undefined, entries: FileEntryWithStats[]) => {
      if (error) return reject(error);
      if (entries.length < expected) return reject(new Error(`listed ${entries.length} of ${expected} entries`));
      resolve();
    });
  });
}

/** OPEN, FSTAT, READ until the end, CLOSE (ssh2's readFile). */
function fetchWhole(sftp: SFTPWrapper, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    sftp.readFile(file, (error: Error | undefined, data: Buffer) => (error ? reject(error) : data.length === 0 ? reject(new Error(`${file} came back empty`)) : resolve()));
  });
}
