import fs from 'node:fs';
import { cpuMicros, rssBytes } from '../proc-stats.js';

/** `root` and every process below it (a primary's workers), from the parent pid in each /proc/<pid>/stat. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The parent pid is the second field after the command name, which may hold spaces.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended between listing and reading.
    }
  }
  const tree: number[] = [];
  const visit = (pid: number) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

/** What a measurement reads of a server made of several processes: the sums over its tree. */
export function treeReadings(root: number): { cpuMicros(): number; rssBytes(): number } {
  // Read once, after every worker serves: the same processes before and after each load.
  const pids = processTree(root);
  const sum = (read: (pid: number) => number) => pids.reduce((total, pid) => {
    try {
      return total + read(pid);
    } catch {
      return total;
    }
  }, 0);
  return { cpuMicros: () => sum(cpuMicros), rssBytes: () => sum(rssBytes) };
}
