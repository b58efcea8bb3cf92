import { openPostgres, openSqlite, type Database } from '../../src/db/database.js';
import { appendEvents, type HistoryEvent } from '../../src/history/index.js';
import { postgresCpuByPid, postgresCpuSince } from '../proc-stats.js';
import type { StoreName } from '../stores.js';

/** Records per transaction, as many as a change ever writes at once and more: the marginal cost. */
const PER_TRANSACTION = 50;

/** A grant creation's record, as grants/grant-history.ts writes it (before its access difference). */
const EVENT: HistoryEvent = {
  action: 'permission_create',
  workspaceId: 1,
  path: '_/Workspaces/1/dir-2/dir-1',
  display: 'Granted readonly on /_/Workspaces/1/dir-2/dir-1 for user w1-user40',
  targets: { id: 123_456, permission: 'readonly', recursive: true, user_id: 42, username: 'w1-user40' },
};

export interface RecordingCost {
  /** CPU of the recording process per record, in µs. */
  appMicros: number;
  /** PostgreSQL's CPU per record, in µs (0 on SQLite, whose work is in the process). */
  databaseMicros: number;
}

/**
 * What recording one History event costs inside a change's transaction, measured in this process
 * with Atrium's own code on a copy of the site: `count` records appended inside transactions of
 * PER_TRANSACTION, CPU time read before and after. The transaction itself is the change's and is
 * not counted: this is what History adds to a change.
 */
export async function measureRecording(name: StoreName, env: Record<string, string>, count: number): Promise<RecordingCost> {
  const database: Database = name === 'sqlite' ? openSqlite(`${env.ATRIUM_DATA_DIR}/atrium.sqlite`) : openPostgres(env.ATRIUM_DATABASE_URL as string);
  try {
    const recording = { now: Date.now(), origin: { interface: 'restapi' as const, ip: '127.0.0.1' }, actor: { userId: 2, username: 'w1-user0', apiKeyId: 3 } };
    const run = async (n: number) => {
      for (let done = 0; done < n; done += PER_TRANSACTION) {
        await database.db.transaction().execute(async (tx) => {
          for (let i = 0; i < PER_TRANSACTION; i += 1) await appendEvents(tx, recording, [EVENT]);
        });
      }
    };
    await run(Math.min(count, 500));
    const databaseBefore = name === 'postgres' ? postgresCpuByPid() : new Map<number, number>();
    const before = process.cpuUsage();
    await run(count);
    const used = process.cpuUsage(before);
    const databaseMicros = name === 'postgres' ? postgresCpuSince(databaseBefore) : 0;
    return { appMicros: (used.user + used.system) / count, databaseMicros: databaseMicros / count };
  } finally {
    await database.close();
  }
}
