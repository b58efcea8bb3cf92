import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';

/**
 * Stored settings as parsed JSON values; unset settings are absent (defaults live in services).
 * Every session request reads them, so they are cached until the data changes.
 */
export async function readStoredSettings(db: Db): Promise<Map<string, unknown>> {
  const rows = await cachedRead(db, 'site-settings', '', async () => Object.freeze(await db.selectFrom('site_settings').selectAll().execute()));
  return new Map(rows.map((row) => [row.name, JSON.parse(row.value) as unknown]));
}

/** Stores each value as JSON text, replacing what was there. */
export async function writeSettings(db: Db, values: Readonly<Record<string, unknown>>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const text = JSON.stringify(value);
    await db
      .insertInto('site_settings')
      .values({ name, value: text })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: text }))
      .execute();
  }
}
