import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { isUncountedWrite, isReadOnlySql, isTransactionControl, type WriteCounter } from './data-version.js';

const TRANSACTION_START = /^\s*(?:begin|start\s+transaction)\b/i;

/**
 * The pool as Kysely sees it, with every statement that may change what a cached read reads
 * reported to `writes`, before it is sent and again once it is done: a request that wrote then
 * reads with a version no read made before the change was visible could have kept a value under.
 * A transaction's commit is reported too (it is when its writes become visible to the others),
 * when the transaction wrote such a statement. History's writes and the jobs' queue's are not reported (isUncountedWrite),
 * nor are transactions that wrote nothing else.
 */
export function countingPool(pool: pg.Pool, writes: WriteCounter): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      // Whether the transaction under way on this connection wrote anything counted.
      let wroteInTransaction = false;
      const query = client.query.bind(client) as (...a: unknown[]) => Promise<unknown>;
      return {
        query(...args: unknown[]) {
          const sqlText = typeof args[0] === 'string' ? args[0] : undefined;
          let moves: boolean;
          if (sqlText === undefined) moves = true;
          else if (isTransactionControl(sqlText)) {
            moves = wroteInTransaction;
            if (TRANSACTION_START.test(sqlText)) wroteInTransaction = false;
          } else {
            moves = !isReadOnlySql(sqlText) && !isUncountedWrite(sqlText);
            wroteInTransaction ||= moves;
          }
          if (!moves) return query(...args) as never;
          writes.noteWrite();
          return query(...args).finally(() => writes.noteWrite()) as never;
        },
        release: () => client.release(),
      } as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}
