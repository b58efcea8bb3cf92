import pg from 'pg';
import { hashPassword, hashSecret, newApiKeySecret } from '../../src/identity/index.js';
import { BENCH_PASSWORD } from '../seed/seed-site.js';
import type { LargeSiteShape } from './large-shape.js';

/** What the scenarios need to call a seeded large (or small) site. */
export interface LargeSite {
  shape: LargeSiteShape;
  /** Ids and keys in Workspace 1: a member of `groupsPerUser` groups, and a Workspace Administrator. */
  member: { id: number; key: string };
  workspaceAdmin: { id: number; key: string };
  /** The folder the member lists, `depth` levels below Workspace 1's root (relative to it). */
  listedFolder: string;
  /** A search text found in Workspace 1, and how many entries of it match. */
  search: { text: string; matches: number };
  seedSeconds: number;
  /** pg_total_relation_size summed over the schema's tables. */
  bytes: number;
}

/** A few words the files are named with, so that a search by part of a name finds some of them. */
const WORDS = [
  'budget', 'review', 'report', 'invoice', 'contract', 'minutes', 'meeting', 'roadmap', 'design', 'draft', 'final', 'summary', 'forecast', 'payroll',
  'audit', 'proposal', 'schedule', 'inventory', 'customer', 'supplier', 'marketing', 'campaign', 'launch', 'research', 'analysis', 'training',
  'policy', 'handbook', 'onboarding', 'expenses', 'receipts', 'travel', 'plan', 'notes', 'backup', 'export', 'archive', 'legal', 'security', 'release',
];
const EXTENSIONS = ['pdf', 'docx', 'xlsx', 'pptx', 'txt', 'csv'];
const sqlArray = (items: readonly string[]) => `array[${items.map((w) => `'${w}'`).join(', ')}]`;

/**
 * A file's name from its chain, level and number, the same in every Workspace: in SQL (a session
 * function, gone with the connection) for the seed, and here for the scenarios' search text.
 */
const FILE_NAME_FUNCTION = `create function pg_temp.bench_file_name(c integer, l integer, n integer) returns text language sql immutable as $$
  select (${sqlArray(WORDS)})[1 + h % ${WORDS.length}] || '-' || (${sqlArray(WORDS)})[1 + (h / ${WORDS.length}) % ${WORDS.length}]
    || ' ' || lpad(n::text, 3, '0') || '.' || (${sqlArray(EXTENSIONS)})[1 + (h / ${WORDS.length * WORDS.length}) % ${EXTENSIONS.length}]
  from (select (c::bigint * 7919 + l * 131 + n::bigint * 31337) % 1000003 as h) as x
$$`;

export function fileName(c: number, l: number, n: number): string {
  const h = (c * 7919 + l * 131 + n * 31337) % 1000003;
  const words = WORDS.length;
  return `${WORDS[h % words]}-${WORDS[Math.floor(h / words) % words]} ${String(n).padStart(3, '0')}.${EXTENSIONS[Math.floor(h / (words * words)) % EXTENSIONS.length]}`;
}

/** A folder's path below its Workspace root: chain `c`, `l` levels deep (`c007/l2/l3`). */
export function folderPath(c: number, l: number): string {
  let path = `c${String(c).padStart(3, '0')}`;
  for (let k = 2; k <= l; k += 1) path += `/l${k}`;
  return path;
}

/** The same in SQL, for the seed. */
const FOLDER_PATH_SQL = (c: string, l: string) => `'c' || lpad(${c}::text, 3, '0') || coalesce((select string_agg('/l' || k, '' order by k) from generate_series(2, ${l}) as k), '')`;

/** Users, groups and ids of Workspace `w` (1-based), as the SQL below computes them. */
export const userId = (shape: LargeSiteShape, w: number, j: number) => 2 + (w - 1) * shape.usersPerWorkspace + j;
const MEMBER_INDEX = 1;
const ADMIN_INDEX = 0;

/**
 * Seeds `shape` into the empty, migrated schema Atrium's `url` points at, written by the database
 * itself (`insert … select … from generate_series`), so 10^7 entries and 10^7 History records take
 * minutes: the big tables' secondary indexes are dropped first and built once at the end, triggers
 * (foreign keys, the data-version note) are off for the seeding session where the role may turn
 * them off (nothing runs on the schema yet), then `vacuum analyze`. `progress` hears each step's time.
 */
export async function seedLargeSite(url: string, shape: LargeSiteShape, progress: (line: string) => void): Promise<LargeSite> {
  const started = Date.now();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const step = async (what: string, text: string, values: unknown[] = []) => {
    const at = Date.now();
    await client.query(text, values);
    progress(`large site (${shape.workspaces} Workspaces): ${what} in ${((Date.now() - at) / 1000).toFixed(1)} s`);
  };
  try {
    // Only a superuser may turn triggers off; anyone else seeds with them on (foreign keys checked), slower.
    await client.query('set session_replication_role = replica').catch(() => undefined);
    await client.query(`set maintenance_work_mem = '1GB'`);
    await client.query(`set synchronous_commit = off`);
    await client.query(FILE_NAME_FUNCTION);
    const dropped = await dropSecondaryIndexes(client, BIG_TABLES);
    const { workspaces: W, usersPerWorkspace: U, groupsPerWorkspace: G, groupsPerUser: K } = shape;
    const chains = Math.max(1, Math.floor(shape.foldersPerWorkspace / shape.depth));
    const now = Date.now();

    await step('Workspaces', `insert into workspaces (id, name, created_at) select w, 'Workspace ' || w, $1::bigint from generate_series(1, $2::integer) as w`, [now, W]);
    await step('users', `insert into users (id, workspace_id, username, username_key, name, email, password_hash, site_admin, workspace_admin, disabled, created_at, password_set_at)
      select 1, 0, 'bench-admin', 'bench-admin', 'Bench Admin', '', $1::text, true, false, false, $2::bigint, $2::bigint
      union all
      select 2 + (w - 1) * $3::integer + j, w, 'w' || w || '-u' || j, 'w' || w || '-u' || j, 'User ' || j || ' of ' || w, 'w' || w || '-u' || j || '@example.com', $1::text, false, j = 0, false, $2::bigint, $2::bigint
      from generate_series(1, $4::integer) as w, generate_series(0, $3::integer - 1) as j`, [passwordHash, now, U, W]);
    await step('groups', `insert into groups (id, workspace_id, name, name_key, created_at)
      select 1 + (w - 1) * $1::integer + g, w, 'w' || w || '-group' || g, 'w' || w || '-group' || g, $2::bigint from generate_series(1, $3::integer) as w, generate_series(0, $1::integer - 1) as g`, [G, now, W]);
    // User j is in groups (j·K + k) mod G, k < K: every group gets U·K/G members.
    await step('memberships', `insert into group_users (group_id, user_id, admin, created_at)
      select 1 + (w - 1) * $1::integer + (j * $2::integer + k) % $1::integer, 2 + (w - 1) * $3::integer + j, false, $4::bigint
      from generate_series(1, $5::integer) as w, generate_series(0, $3::integer - 1) as j, generate_series(0, $2::integer - 1) as k`, [G, K, U, now, W]);

    await client.query(`create temporary table bench_folders as
      select w, c, l, '_/Workspaces/' || w || '/' || ${FOLDER_PATH_SQL('c', 'l')} as path
      from generate_series(1, $1::integer) as w, generate_series(0, $2::integer - 1) as c, generate_series(1, $3::integer) as l`, [W, chains, shape.depth]);
    await step('folders', `insert into entries (path, path_key, parent_key, type, size, storage_key, created_at, mtime)
      select '_', '_', '', 'directory', null::bigint, null::text, $1::bigint, $1::bigint
      union all select '_/Workspaces', '_/workspaces', '_', 'directory', null, null, $1::bigint, $1::bigint
      union all select '_/Workspaces/' || w, '_/workspaces/' || w, '_/workspaces', 'directory', null, null, $1::bigint, $1::bigint from generate_series(1, $2::integer) as w
      union all select path, lower(path), lower(regexp_replace(path, '/[^/]*$', '')), 'directory', null, null, $1::bigint, $1::bigint from bench_folders`, [now, W]);
    await step(`${(W * chains * shape.depth * shape.filesPerFolder).toLocaleString('en')} files`, `insert into entries (path, path_key, parent_key, type, size, storage_key, created_at, mtime)
      select f.path || '/' || pg_temp.bench_file_name(f.c, f.l, n), lower(f.path || '/' || pg_temp.bench_file_name(f.c, f.l, n)), lower(f.path), 'file',
        1024 * (1 + n % 100), 'bench-shared-blob-' || (n % $2::integer), $3::bigint, $3::bigint - n * 1000
      from bench_folders as f, generate_series(1, $1::integer) as n`, [shape.filesPerFolder, shape.blobs, now]);

    // Grants: 45% a user's, 45% a group's, 10% ALL-of two groups, on the Workspace root or a folder
    // or file 1 to `depth` levels deep, 80% recursive; then the member's own, last in each Workspace.
    const R = shape.grantsPerWorkspace;
    await client.query(`create temporary table bench_grants as
      select (w - 1) * ($1::integer + 1) + i + 1 as id, w, i % 20 as kind, h, (h / 9) % $3::integer as c, h % 9 as l, (h / 997) % 5 = 0 as on_file, 1 + (h / 4999) % $4::integer as n
      from generate_series(1, $2::integer) as w, generate_series(0, $1::integer - 1) as i, lateral (select (i::bigint * 2654435761 + w) % 4294967291 as h) as x`, [R, W, chains, shape.filesPerFolder]);
    await step(`${(W * R).toLocaleString('en')} grants`, `insert into permissions (id, workspace_id, path, path_key, user_id, group_id, permission, recursive, created_at)
      select id, w, p.path, lower(p.path),
        case when kind < 9 then 2 + (w - 1) * $1::integer + (h / 13) % $1::integer end,
        case when kind between 9 and 17 then 1 + (w - 1) * $2::integer + (h / 13) % $2::integer end,
        (array['readonly', 'readonly', 'readonly', 'full', 'full', 'full', 'list', 'writeonly', 'readonly', 'full'])[1 + (h / 31) % 10],
        (h / 7) % 5 <> 0, $3::bigint
      from bench_grants, lateral (select case when l = 0 then '_/Workspaces/' || w
        else '_/Workspaces/' || w || '/' || ${FOLDER_PATH_SQL('c', 'l')} || case when on_file then '/' || pg_temp.bench_file_name(c::integer, l::integer, n::integer) else '' end end as path) as p
      union all
      select w * ($4::integer + 1), w, '_/Workspaces/' || w || '/c000', '_/workspaces/' || w || '/c000', null, 1 + (w - 1) * $2::integer + ($5::integer * $6::integer) % $2::integer, 'readonly', true, $3::bigint
      from generate_series(1, $7::integer) as w`, [U, G, now, R, MEMBER_INDEX, K, W]);
    await step('ALL-of grants\' groups', `insert into permission_groups (permission_id, group_id)
      select id, 1 + (w - 1) * $1::integer + (h / 13) % $1::integer from bench_grants where kind >= 18
      union all select id, 1 + (w - 1) * $1::integer + ((h / 13) % $1::integer + 1 + (h / 17) % ($1::integer - 1)) % $1::integer from bench_grants where kind >= 18`, [G]);

    // History: records of every Workspace in turns, as a busy site commits them, newest last.
    const H = shape.historyPerWorkspace;
    await step(`${(W * H).toLocaleString('en')} History records`, `insert into history (id, created_at, action, interface, ip, user_id, username, workspace_id, path, path_key, display, hash)
      select i::bigint * $1::integer + w, $2::bigint - ($3::bigint - i) * 1000, (array['login', 'permission_create', 'create', 'update', 'read', 'read', 'read', 'read'])[1 + i % 8],
        'restapi', '127.0.0.1', 2 + (w - 1) * $4::integer + i % $4::integer, 'w' || w || '-u' || (i % $4::integer), w,
        '_/Workspaces/' || w || '/c000/l2/file-' || i || '.txt', '_/workspaces/' || w || '/c000/l2/file-' || i || '.txt', 'Bench record ' || i, 'bench'
      from generate_series(0, $3::integer - 1) as i, generate_series(1, $1::integer) as w`, [W, now, H, U]);
    await client.query('update history_chain set last_id = $1 where id = 1', [W * H]);

    const memberId = userId(shape, 1, MEMBER_INDEX);
    const adminId = userId(shape, 1, ADMIN_INDEX);
    const memberKey = newApiKeySecret();
    const adminKey = newApiKeySecret();
    const keyRow = (name: string, user: number, secret: string) => {
      const { lookup, hash } = hashSecret(secret);
      return [name, user, 'full', 1, lookup, hash, now];
    };
    await client.query(`insert into api_keys (name, user_id, permission_set, workspace_id, lookup, secret_hash, created_at) values ($1, $2, $3, $4, $5, $6, $7), ($8, $9, $10, $11, $12, $13, $14)`,
      [...keyRow('bench member key', memberId, memberKey), ...keyRow('bench Workspace Administrator key', adminId, adminKey)]);

    for (const index of dropped) await step(`index ${index.name}`, index.create);
    for (const table of ['workspaces', 'users', 'groups', 'group_users', 'permissions', 'entries', 'api_keys']) {
      await client.query(`select setval(pg_get_serial_sequence($1, 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`, [table]);
    }
    await step('vacuum analyze', `vacuum analyze ${[...BIG_TABLES, 'workspaces', 'permission_groups', 'api_keys'].join(', ')}`);

    const search = fileName(0, shape.depth, 1).split(' ')[0] as string;
    const matches = Number((await client.query<{ count: string }>(`select count(*) from entries where path_key like '\\_/workspaces/1/%' and parent_key <> '_/workspaces'
      and substr(path_key, length(parent_key) + 2) like '%' || $1 || '%'`, [search])).rows[0]?.count);
    const bytes = Number((await client.query<{ bytes: string }>(`select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'`)).rows[0]?.bytes);
    return {
      shape,
      member: { id: memberId, key: memberKey },
      workspaceAdmin: { id: adminId, key: adminKey },
      listedFolder: folderPath(0, shape.depth),
      search: { text: search, matches },
      seedSeconds: (Date.now() - started) / 1000,
      bytes,
    };
  } finally {
    await client.end();
  }
}

/** The tables with many rows, whose secondary indexes are built after their rows. */
const BIG_TABLES = ['users', 'groups', 'group_users', 'permissions', 'entries', 'history'];

/**
 * Drops the indexes of `tables` other than primary keys (unique constraints included) and answers
 * the statements that make them again: building an index once over sorted rows is many times
 * faster than keeping it up to date through 10^7 inserts.
 */
async function dropSecondaryIndexes(client: pg.Client, tables: readonly string[]): Promise<{ name: string; create: string }[]> {
  const constraints = (await client.query<{ table: string; name: string; def: string }>(`select t.relname as table, c.conname as name, pg_get_constraintdef(c.oid) as def
    from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = current_schema() and c.contype = 'u' and t.relname = any($1)`, [tables])).rows;
  const indexes = (await client.query<{ name: string; def: string }>(`select i.indexname as name, i.indexdef as def from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = any($1)
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.contype in ('p', 'u'))`, [tables])).rows;
  for (const c of constraints) await client.query(`alter table ${c.table} drop constraint ${c.name}`);
  for (const i of indexes) await client.query(`drop index ${i.name}`);
  return [
    ...constraints.map((c) => ({ name: c.name, create: `alter table ${c.table} add constraint ${c.name} ${c.def}` })),
    ...indexes.map((i) => ({ name: i.name, create: i.def })),
  ];
}
