import type { Db } from '../db/database.js';

/**
 * The files whose MD5, SHA-1 and CRC-32 are still to be computed (files/file-digests.ts), found by
 * their blob wherever the file now is: a file, a file's earlier version, or in the trash. All
 * three name the blob the same way, and a blob's bytes never change, so whichever of them holds
 * it when the digests are known gets them.
 */
const HOLDERS = ['entries', 'file_versions', 'trash_items'] as const;

/** A blob's digests as storage computed them, lower-case hex. */
export interface BlobDigests {
  sha256: string;
  md5: string | null;
  sha1: string | null;
  crc32: string | null;
}

/**
 * The SHA-256 that some holder of the blob `storageKey` without its other digests records, or
 * undefined when none is left waiting (they were filled, or the blob is no longer in use).
 */
export async function pendingSha256(db: Db, storageKey: string): Promise<string | undefined> {
  for (const table of HOLDERS) {
    const row = await db
      .selectFrom(table)
      .select('sha256')
      .where('storage_key', '=', storageKey)
      .where('md5', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (row?.sha256 != null) return row.sha256;
  }
  return undefined;
}

/**
 * Records the blob's MD5, SHA-1 and CRC-32 on every holder still without them, only where the
 * SHA-256 recorded is the one computed from the bytes (a holder recording another is left as it
 * is: its blob does not hold what was stored). Answers how many holders it filled.
 */
export async function fillPendingDigests(db: Db, storageKey: string, digests: BlobDigests): Promise<number> {
  let filled = 0;
  for (const table of HOLDERS) {
    const result = await db
      .updateTable(table)
      .set({ md5: digests.md5, sha1: digests.sha1, crc32: digests.crc32 })
      .where('storage_key', '=', storageKey)
      .where('md5', 'is', null)
      .where('sha256', '=', digests.sha256)
      .executeTakeFirst();
    filled += Number(result.numUpdatedRows);
  }
  return filled;
}
