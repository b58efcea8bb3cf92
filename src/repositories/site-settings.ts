import type { Db } from '../db/database.js';

/** Stored settings as parsed JSON values; unset settings are absent (defaults live in services). */
export async function readStoredSettings(db: Db): Promise<Map<string, unknown>> {
  const rows = await db.selectFrom('site_settings').selectAll().execute();
  return new Map(rows.map((row) => [row.name, JSON.parse(row.value) as unknown]));
}
