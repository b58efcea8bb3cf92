import type { Db } from '../db/database.js';
import { historyRowsAfter, readHistoryChain } from '../repositories/history.js';
import { chainHash } from './chain-hash.js';

/** What verification found: the chain holds, or the first record where it breaks and how. */
export type ChainVerdict =
  | { intact: true; checked: number; firstId: number | null; lastId: number }
  | { intact: false; checked: number; atId: number; problem: string };

const BATCH = 5000;

/**
 * Walks History in id order from where retention last cut it (the chain row's pruned id and
 * hash) and recomputes every hash from the record's own fields and the hash before it:
 * - an edited record no longer matches its hash;
 * - a removed record leaves a gap in the ids, and breaks the next record's hash;
 * - reordered records break the hashes (each covers its id and the hash before it);
 * - records removed from the end leave the chain row's last id and hash unmatched.
 * Only reads; safe to run beside a running server.
 */
export async function verifyHistoryChain(db: Db): Promise<ChainVerdict> {
  const chain = await readHistoryChain(db);
  let previousId = chain.pruned_id;
  let previousHash = chain.pruned_hash;
  let checked = 0;
  for (;;) {
    const rows = await historyRowsAfter(db, previousId, BATCH);
    for (const row of rows) {
      if (row.id > chain.last_id) return { intact: true, checked, firstId: checked === 0 ? null : chain.pruned_id + 1, lastId: previousId };
      if (row.id !== previousId + 1) return { intact: false, checked, atId: previousId + 1, problem: `record ${previousId + 1} is missing (the next is ${row.id})` };
      const { hash, ...fields } = row;
      if (chainHash(previousHash, fields) !== hash) {
        return { intact: false, checked, atId: row.id, problem: `record ${row.id} does not match its hash: it was changed, or records before it were` };
      }
      previousId = row.id;
      previousHash = hash;
      checked += 1;
    }
    if (rows.length < BATCH) break;
  }
  // Records written after the chain row was read are checked next time.
  if (previousId < chain.last_id) return { intact: false, checked, atId: previousId + 1, problem: `records ${previousId + 1} to ${chain.last_id} are missing` };
  if (previousHash !== chain.last_hash) return { intact: false, checked, atId: previousId, problem: `the last record ${previousId} is not the one the chain ends with` };
  return { intact: true, checked, firstId: checked === 0 ? null : chain.pruned_id + 1, lastId: previousId };
}
