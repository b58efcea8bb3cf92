import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

/** The query builder over Atrium's tables: the database, or a transaction on it. */
export type Db = Kysely<Tables>;
