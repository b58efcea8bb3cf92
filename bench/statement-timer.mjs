// Times every SQLite statement Atrium runs, to see where a request's database time goes:
//   node --import ./bench/statement-timer.mjs dist/main.js
// (or the bench with BENCH_NODE_ARGS="--import ./bench/statement-timer.mjs"), then load it and stop
// it with SIGTERM: the statements with the most total time, with their mean time and count, go to
// a file named by the process id in STATEMENT_TIMER_DIR, else in the temporary directory (the bench
// drops its servers' output and passes them none of its own environment). A diagnostic, not part
// of the bench run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import BetterSqlite3 from 'better-sqlite3';

const stats = new Map();
const prepare = BetterSqlite3.prototype.prepare;
BetterSqlite3.prototype.prepare = function timedPrepare(sql) {
  const statement = prepare.call(this, sql);
  for (const method of ['all', 'get', 'run']) {
    const original = statement[method].bind(statement);
    statement[method] = (...args) => {
      const started = process.hrtime.bigint();
      try {
        return original(...args);
      } finally {
        const entry = stats.get(sql) ?? { count: 0, micros: 0 };
        entry.count += 1;
        entry.micros += Number(process.hrtime.bigint() - started) / 1000;
        stats.set(sql, entry);
      }
    };
  }
  return statement;
};

process.once('SIGTERM', () => {
  const rows = [...stats].sort((a, b) => b[1].micros - a[1].micros).slice(0, 25);
  const lines = rows.map(([sql, { count, micros }]) => `${(micros / count).toFixed(1).padStart(8)} µs × ${String(count).padStart(8)}  ${sql.replace(/\s+/g, ' ').slice(0, 240)}\n`).join('');
  fs.writeFileSync(path.join(process.env.STATEMENT_TIMER_DIR ?? os.tmpdir(), `atrium-statements-${process.pid}.txt`), lines);
  process.exit(0);
});
