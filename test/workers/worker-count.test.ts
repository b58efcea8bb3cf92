import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { coresOfQuota, workerCountFor } from '../../src/workers/worker-count.js';

describe('how many workers ATRIUM_WORKERS asks for', () => {
  it('takes a number as it is', () => {
    expect(workerCountFor(3, undefined)).toBe(3);
  });

  it('makes `auto` one per core this process may use, capped by a cgroup CPU quota rounded up', () => {
    const cores = os.availableParallelism();
    expect(workerCountFor('auto', undefined)).toBe(cores);
    expect(workerCountFor('auto', 'max 100000\n')).toBe(cores);
    expect(workerCountFor('auto', '50000 100000\n')).toBe(1);
    expect(workerCountFor('auto', `${cores * 1000 * 100} 100000`)).toBe(cores);
  });

  it('reads cgroup v2 cpu.max', () => {
    expect(coresOfQuota('150000 100000')).toBe(2);
    expect(coresOfQuota('max 100000')).toBeUndefined();
    expect(coresOfQuota('')).toBeUndefined();
  });
});
