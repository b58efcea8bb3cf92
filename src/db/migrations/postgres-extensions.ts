import { sql, type Kysely } from 'kysely';

/**
 * The schema holding a PostgreSQL extension (pg_trgm, btree_gin), installed if missing: in
 * `public` when there is one (a test or tenant schema may be dropped with everything in it, and
 * the extension with it), else in Atrium's own schema. Both are trusted extensions: a database
 * owner may install them without being a superuser. Two servers migrating at once may both try:
 * the loser finds the winner's.
 */
export async function extensionSchema(db: Kysely<unknown>, name: 'pg_trgm' | 'btree_gin'): Promise<string> {
  const installed = async () => (await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = ${name}`.execute(db)).rows[0]?.schema;
  const found = await installed();
  if (found !== undefined) return found;
  const hasPublic = (await sql`select 1 from pg_namespace where nspname = 'public'`.execute(db)).rows.length > 0;
  await sql`savepoint atrium_extension`.execute(db);
  try {
    await sql.raw(`create extension if not exists ${name}${hasPublic ? ' schema public' : ''}`).execute(db);
  } catch (error) {
    await sql`rollback to savepoint atrium_extension`.execute(db);
    if ((await installed()) === undefined) throw error;
  }
  await sql`release savepoint atrium_extension`.execute(db);
  const schema = await installed();
  if (schema === undefined) throw new Error(`${name} could not be installed`);
  return schema;
}
