import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What `dd` did on its own: bytes and seconds, from the start of the command to its exit. */
export interface DiskFigure {
  bytes: number;
  seconds: number;
}

/**
 * The disk's own figure for writing `bytes` to `file`: `dd if=/dev/zero bs=1M conv=fsync`, i.e.
 * through the page cache and flushed once at the end, which is what Atrium does with a blob
 * (written, then fsync'd before it is renamed into place).
 */
export async function ddWrite(file: string, bytes: number): Promise<DiskFigure> {
  const started = performance.now();
  await run('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M', `count=${Math.ceil(bytes / 2 ** 20)}`, 'conv=fsync', 'status=none']);
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

/**
 * The disk's own figure for reading `file` cold: its pages are dropped from the page cache first
 * (evict), as Atrium's blob is before each download, so both sides read from the disk.
 */
export async function ddRead(file: string): Promise<DiskFigure> {
  await evict(file);
  const started = performance.now();
  await run('dd', [`if=${file}`, 'of=/dev/null', 'bs=1M', 'status=none']);
  return { bytes: fs.statSync(file).size, seconds: (performance.now() - started) / 1000 };
}

/**
 * Drops a file's (clean) pages from the page cache: GNU dd's `iflag=nocache count=0` is
 * posix_fadvise(POSIX_FADV_DONTNEED) on the whole file. Needs no privilege, unlike drop_caches,
 * and touches nothing but this file.
 */
export function evict(file: string): Promise<void> {
  return run('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
}

/** Evicts every file under `dir` (Atrium's blobs, whose names the bench does not know). */
export async function evictTree(dir: string): Promise<void> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) await evict(path.join(entry.parentPath, entry.name));
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${errors.slice(0, 300)}`))));
  });
}
