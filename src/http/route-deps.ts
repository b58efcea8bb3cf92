import type { Database, Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import type { BrandHeaders } from './brand-headers.js';

/** What route modules need from the app: the database, the clock and the header names. */
export interface RouteDeps {
  database: Database;
  db: Db;
  clock: Clock;
  headers: BrandHeaders;
}
