import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { startsWith } from './like-patterns.js';

export interface DeadProperty {
  namespace: string;
  name: string;
  /** The property element as a self-contained XML fragment. */
  value: string;
}

export interface KeyedDeadProperty extends DeadProperty {
  pathKey: string;
}

const CHUNK = 500;

/** The dead properties of the entries at these path keys, with the key of each. */
export async function findDeadProperties(db: Db, keys: readonly string[]): Promise<KeyedDeadProperty[]> {
  const found: KeyedDeadProperty[] = [];
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows = await db
      .selectFrom('dav_properties')
      .innerJoin('entries', 'entries.id', 'dav_properties.entry_id')
      .select(['entries.path_key', 'dav_properties.namespace', 'dav_properties.name', 'dav_properties.value'])
      .where('entries.path_key', 'in', keys.slice(i, i + CHUNK))
      .orderBy('dav_properties.namespace')
      .orderBy('dav_properties.name')
      .execute();
    found.push(...rows.map((row) => ({ pathKey: row.path_key, namespace: row.namespace, name: row.name, value: row.value })));
  }
  return found;
}

/**
 * The dead properties of a folder and of its members, in one statement whatever the folder's size
 * (a PROPFIND Depth 1 asks for all of them at once).
 */
export async function findDeadPropertiesInFolder(db: Db, folderKey: string): Promise<KeyedDeadProperty[]> {
  const rows = await db
    .selectFrom('dav_properties')
    .innerJoin('entries', 'entries.id', 'dav_properties.entry_id')
    .select(['entries.path_key', 'dav_properties.namespace', 'dav_properties.name', 'dav_properties.value'])
    .where((w) => w.or([w('entries.path_key', '=', folderKey), w('entries.parent_key', '=', folderKey)]))
    .orderBy('dav_properties.namespace')
    .orderBy('dav_properties.name')
    .execute();
  return rows.map((row) => ({ pathKey: row.path_key, namespace: row.namespace, name: row.name, value: row.value }));
}

/** The size of a stored dead property: the UTF-8 bytes of its namespace, name and value, counted by the database. */
const storedBytes = sql<number>`octet_length(dav_properties.namespace) + octet_length(dav_properties.name) + octet_length(dav_properties.value)`;

/** Each dead property of an entry with its stored size, without reading the values themselves. */
export async function deadPropertySizes(db: Db, entryId: number): Promise<{ namespace: string; name: string; bytes: number }[]> {
  const rows = await db.selectFrom('dav_properties').select(['namespace', 'name', storedBytes.as('bytes')]).where('entry_id', '=', entryId).execute();
  return rows.map((row) => ({ namespace: row.namespace, name: row.name, bytes: Number(row.bytes) }));
}

/**
 * Whether an entry (with `members`, or anything below it) keeps more than `limits` allows of dead
 * properties: more of them, or more bytes.
 */
export async function hasDeadPropertiesBeyond(db: Db, pathKey: string, options: { members: boolean; count: number; bytes: number }): Promise<boolean> {
  const row = await db
    .selectFrom('dav_properties')
    .innerJoin('entries', 'entries.id', 'dav_properties.entry_id')
    .select('dav_properties.entry_id')
    .where((w) => (options.members ? w.or([w('entries.path_key', '=', pathKey), startsWith('entries.path_key', `${pathKey}/`)]) : w('entries.path_key', '=', pathKey)))
    .groupBy('dav_properties.entry_id')
    .having((h) => h.or([h(h.fn.countAll(), '>', options.count), h(h.fn.sum(storedBytes), '>', options.bytes)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Sets a dead property of an entry, replacing its value if it has one. */
export async function setDeadProperty(db: Db, entryId: number, property: DeadProperty): Promise<void> {
  await db
    .insertInto('dav_properties')
    .values({ entry_id: entryId, namespace: property.namespace, name: property.name, value: property.value })
    .onConflict((oc) => oc.columns(['entry_id', 'namespace', 'name']).doUpdateSet({ value: property.value }))
    .execute();
}

export async function removeDeadProperty(db: Db, entryId: number, namespace: string, name: string): Promise<void> {
  await db.deleteFrom('dav_properties').where('entry_id', '=', entryId).where('namespace', '=', namespace).where('name', '=', name).execute();
}

/**
 * Copies the dead properties of an entry and everything below it (`from`) to the copies just
 * inserted at `to`, matched by path key, in one statement. Prefix lengths are counted by the
 * database, as entry-subtrees.ts moveSubtree counts them.
 */
export async function copyDeadProperties(db: Db, from: string, to: string): Promise<void> {
  const text = (value: string) => sql<string>`cast(${value} as text)`;
  await db
    .insertInto('dav_properties')
    .columns(['entry_id', 'namespace', 'name', 'value'])
    .expression((eb) =>
      eb
        .selectFrom('dav_properties as p')
        .innerJoin('entries as o', 'o.id', 'p.entry_id')
        .innerJoin('entries as n', (join) => join.on(sql<boolean>`n.path_key = ${text(to)} || substr(o.path_key, length(${text(from)}) + 1)`))
        .select(['n.id', 'p.namespace', 'p.name', 'p.value'])
        .where((w) => w.or([w('o.path_key', '=', from), startsWith('o.path_key', `${from}/`)])),
    )
    .execute();
}
