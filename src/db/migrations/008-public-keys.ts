import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * SSH public keys a user signs in to SFTP with (Files.com's PublicKey). The key is kept as the
 * SSH wire blob (base64) that a client presents at sign-in, so the sign-in compares bytes and
 * never parses what was pasted; fingerprints are computed once, at creation. Deleting a user
 * deletes its keys.
 */
export function publicKeys(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('public_keys'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('algorithm', 'text', (c) => c.notNull())
        .addColumn('key_blob', 'text', (c) => c.notNull())
        .addColumn('comment', 'text', (c) => c.notNull())
        .addColumn('fingerprint_md5', 'text', (c) => c.notNull())
        .addColumn('fingerprint_sha256', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_login_at', t.time)
        .execute();
      // One registration of a key per user: sign-in finds it by user and blob.
      await db.schema.createIndex('public_keys_user_key').on('public_keys').columns(['user_id', 'fingerprint_sha256']).unique().execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('public_keys').execute();
    },
  };
}
