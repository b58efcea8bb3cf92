import fs from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

/**
 * With ATRIUM_TEST_CPU_REPORT=<file>, each test file appends a line to that file: the processor
 * time it used (its worker's, and that of the servers, browsers and clients it started and waited
 * for), its wall time, and its name. A file's wall time alone says little on two cores shared by
 * three workers and PostgreSQL; its CPU says what it costs the suite (README, "What the suite
 * costs"). Linux only (it reads /proc); elsewhere, and without the variable, it does nothing.
 */
const report = process.env.ATRIUM_TEST_CPU_REPORT;

/** Processor time of this process and its waited-for children, in clock ticks (usually 1/100 s). */
function ticksUsed(): number {
  // The fields after "pid (name) ": utime, stime, cutime and cstime are the 12th to the 15th.
  const fields = (fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1] ?? '').split(' ');
  return [11, 12, 13, 14].reduce((sum, at) => sum + Number(fields[at]), 0);
}

if (report !== undefined && fs.existsSync('/proc/self/stat')) {
  let ticksAtStart = 0;
  let startedAt = 0;
  beforeAll(() => {
    ticksAtStart = ticksUsed();
    startedAt = Date.now();
  });
  afterAll(() => {
    const seconds = (ticksUsed() - ticksAtStart) / 100;
    fs.appendFileSync(report, `${seconds.toFixed(2)} ${((Date.now() - startedAt) / 1000).toFixed(1)} ${expect.getState().testPath ?? '?'}\n`);
  });
}
