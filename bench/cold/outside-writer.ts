import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/**
 * A connection of the bench's own to Atrium's database, which writes one tiny row: every commit
 * from outside Atrium's process moves the data version (src/db/data-version.ts), so the next
 * request finds every read cache and rendered body empty, as on a site where uploads, downloads
 * and sign-ins write all the time. The row is a site setting no one reads (settings of unknown
 * names are ignored, src/identity/site-settings.ts), its value valid JSON; it is removed on close.
 */
export interface OutsideWriter {
  write(i: number): Promise<void>;
  close(): Promise<void>;
}

const SETTING = 'bench_cold_write';

/** Opens the connection Atrium's environment `env` points at: PostgreSQL's URL, else the SQLite file. */
export async function openOutsideWriter(env: Record<string, string>): Promise<OutsideWriter> {
  const url = env.ATRIUM_DATABASE_URL;
  if (url !== undefined) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const upsert = { name: 'bench-cold-write', text: 'insert into site_settings (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value' };
    return {
      write: async (i) => { await client.query({ ...upsert, values: [SETTING, String(i)] }); },
      async close() {
        try {
          await client.query('delete from site_settings where name = $1', [SETTING]);
        } finally {
          await client.end();
        }
      },
    };
  }
  const sqlite = new BetterSqlite3(path.join(env.ATRIUM_DATA_DIR as string, 'atrium.sqlite'));
  sqlite.pragma('busy_timeout = 5000');
  const upsert = sqlite.prepare('insert into site_settings (name, value) values (?, ?) on conflict (name) do update set value = excluded.value');
  return {
    write: async (i) => { upsert.run(SETTING, String(i)); },
    async close() {
      try {
        sqlite.prepare('delete from site_settings where name = ?').run(SETTING);
      } finally {
        sqlite.close();
      }
    },
  };
}
