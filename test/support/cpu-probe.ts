import fs from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

function ticks(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // utime stime cutime cstime are fields 14-17 (1-based) of the whole line, 12-15 after "pid (comm) "
  return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
}
let start = 0;
let wall = 0;
beforeAll(() => { start = ticks(); wall = Date.now(); });
afterAll(() => {
  const file = (globalThis as any).__vitest_worker__?.filepath ?? expect.getState().testPath;
  fs.appendFileSync('/tmp/cpu-probe.txt', `${((ticks() - start) / 100).toFixed(2)} ${((Date.now() - wall) / 1000).toFixed(1)} ${file}\n`);
});
