import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Clock ticks per second of utime/stime in /proc (almost always 100). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a process has used so far, in microseconds, from /proc/<pid>/stat. */
export function cpuMicros(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may itself hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / TICKS_PER_SECOND;
}

/** Resident memory of a process in bytes, from /proc/<pid>/status. */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

/**
 * CPU time of each PostgreSQL process on this machine (server and backends) so far, by pid, in
 * microseconds: with PostgreSQL the database's own work happens outside Atrium's process.
 */
export function postgresCpuByPid(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      byPid.set(Number(entry), cpuMicros(Number(entry)));
    } catch {
      // The process ended between listing and reading.
    }
  }
  return byPid;
}

/**
 * PostgreSQL's CPU time since `before`: each process's growth, a process started since counted
 * whole. A process that ended in between takes its time with it (an autovacuum worker, say), so
 * the figure is a lower bound, never a difference of unrelated sums (which could go negative).
 */
export function postgresCpuSince(before: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, micros] of postgresCpuByPid()) total += micros - (before.get(pid) ?? 0);
  return total;
}
