import fs from 'node:fs';
import os from 'node:os';

/**
 * How many server processes `ATRIUM_WORKERS` asks for. `auto` is one per CPU core this process
 * may run on: the cores its affinity allows (`taskset`, `docker --cpuset-cpus`), capped by a
 * cgroup v2 CPU quota when one is set (`docker --cpus=2`, a Kubernetes CPU limit), rounded up.
 * More workers than that would only take turns on the same cores.
 */
export function workerCountFor(setting: number | 'auto', cgroupCpuMax = readCgroupCpuMax()): number {
  if (setting !== 'auto') return setting;
  const cores = os.availableParallelism();
  const quota = cgroupCpuMax === undefined ? undefined : coresOfQuota(cgroupCpuMax);
  return Math.max(1, Math.min(cores, quota ?? cores));
}

/** `cpu.max` reads `<quota> <period>` in microseconds, or `max <period>` when there is no quota. */
export function coresOfQuota(cpuMax: string): number | undefined {
  const [quota, period] = cpuMax.trim().split(/\s+/);
  const microseconds = Number(quota);
  const per = Number(period);
  if (quota === 'max' || !Number.isFinite(microseconds) || !Number.isFinite(per) || microseconds <= 0 || per <= 0) return undefined;
  return Math.ceil(microseconds / per);
}

function readCgroupCpuMax(): string | undefined {
  try {
    return fs.readFileSync('/sys/fs/cgroup/cpu.max', 'utf8');
  } catch {
    return undefined;
  }
}
