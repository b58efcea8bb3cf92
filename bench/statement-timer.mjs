// Times every SQLite statement Atrium runs, to see where a request's database time goes:
//   node --import ./bench/statement-timer.mjs dist/main.js
// then load it and stop it with SIGTERM: the statements with the most total time are printed to
// standard error, with their mean time and count. A diagnostic, not part of the bench run.
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
  const rows = [...stats].sort((a, b) => b[1].micros - a[1].micros).slice(0, 15);
  for (const [sql, { count, micros }] of rows) {
    process.stderr.write(`${(micros / count).toFixed(1).padStart(8)} µs × ${String(count).padStart(6)}  ${sql.replace(/\s+/g, ' ').slice(0, 160)}\n`);
  }
  process.exit(0);
});
