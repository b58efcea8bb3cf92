import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { StoreName } from '../stores.js';

/**
 * Grows the History of a copy of the site to `total` records, written by the database itself in
 * one statement (a generated series), so that 10^7 records take a minute rather than an hour.
 * They are spread over the Workspaces, users, actions and days like a busy site's; they are not on
 * the hash chain (nothing verifies a bench copy), and the chain's end moves past them so that the
 * server appends after them.
 */
export async function growHistory(name: StoreName, env: Record<string, string>, total: number): Promise<void> {
  if (name === 'sqlite') {
    const sqlite = new BetterSqlite3(`${env.ATRIUM_DATA_DIR}/atrium.sqlite`);
    try {
      const last = (sqlite.prepare('select last_id from history_chain where id = 1').get() as { last_id: number }).last_id;
      if (last >= total) return;
      sqlite.prepare(`with recursive s(i) as (select ? union all select i + 1 from s where i < ?)
        insert into history (id, created_at, action, interface, ip, user_id, username, workspace_id, path, path_key, display, hash)
        select i, ? + i * 1000, ${ACTION_SQL}, 'restapi', '127.0.0.1', 2 + i % 10000, 'w' || (1 + i % 10) || '-user' || (i % 1000), 1 + i % 10,
          '_/Workspaces/' || (1 + i % 10) || '/dir-1/file-' || i || '.txt', '_/workspaces/' || (1 + i % 10) || '/dir-1/file-' || i || '.txt',
          'Bench record ' || i, 'bench' from s`).run(last + 1, total, Date.now() - total * 1000);
      sqlite.prepare('update history_chain set last_id = ? where id = 1').run(total);
    } finally {
      sqlite.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: env.ATRIUM_DATABASE_URL });
  await client.connect();
  try {
    const last = Number((await client.query<{ last_id: number }>('select last_id from history_chain where id = 1')).rows[0]?.last_id ?? 0);
    if (last >= total) return;
    await client.query(`insert into history (id, created_at, action, interface, ip, user_id, username, workspace_id, path, path_key, display, hash)
      select i, $3::bigint + i::bigint * 1000, ${ACTION_SQL}, 'restapi', '127.0.0.1', 2 + i % 10000, 'w' || (1 + i % 10) || '-user' || (i % 1000), 1 + i % 10,
        '_/Workspaces/' || (1 + i % 10) || '/dir-1/file-' || i || '.txt', '_/workspaces/' || (1 + i % 10) || '/dir-1/file-' || i || '.txt',
        'Bench record ' || i, 'bench' from generate_series($1::integer, $2::integer) as i`, [last + 1, total, Date.now() - total * 1000]);
    await client.query('update history_chain set last_id = $1 where id = 1', [total]);
    await client.query('vacuum analyze history');
  } finally {
    await client.end();
  }
}

/** Mostly file actions, some sign-ins and grant changes. */
const ACTION_SQL = `case i % 8 when 0 then 'login' when 1 then 'permission_create' when 2 then 'create' when 3 then 'update' else 'read' end`;
