import { reachesWorkspace, type Call } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { readHistoryChain, type HistoryRow } from '../repositories/history.js';
import { findHistoryExport, insertHistoryExport } from '../repositories/history-exports.js';
import { listHistory, type HistoryQuery } from './listing.js';

/** A saved export: the query, the context it was made in, and the last record it covers. */
export interface HistoryExport {
  id: number;
  createdAt: number;
  workspaceId: number;
  maxId: number;
  query: HistoryQuery;
}

/** Records are read this many at a time when an export is downloaded. */
export const EXPORT_BATCH = 1000;

/**
 * POST /history_exports: saves the query with the chain's current end, so the export always
 * answers the same records however much History grows afterwards (until retention removes some).
 * It is ready at once: its results are read when asked for, a batch at a time.
 */
export async function createHistoryExport(call: Call, query: HistoryQuery): Promise<HistoryExport> {
  const chain = await readHistoryChain(call.db);
  const id = await insertHistoryExport(call.db, {
    created_at: call.now,
    user_id: call.caller.user?.id ?? null,
    api_key_id: call.caller.credential.kind === 'api_key' ? call.caller.credential.keyId : null,
    workspace_id: call.requestWorkspaceId,
    max_id: chain.last_id,
    query: JSON.stringify(query),
  });
  return { id, createdAt: call.now, workspaceId: call.requestWorkspaceId, maxId: chain.last_id, query };
}

/**
 * An export its maker asks for again: the same user (or, for a site-wide key, the same key).
 * Anyone else's export is not found, as if it did not exist; so is one made in another Workspace
 * than the one a confined credential acts in, even by its own user: its records are read in the
 * context it was made in, which such a credential cannot work in (contract 4.3).
 */
export async function getHistoryExport(call: Call, id: number): Promise<HistoryExport> {
  const row = await findHistoryExport(call.db, id);
  const userId = call.caller.user?.id ?? null;
  const keyId = call.caller.credential.kind === 'api_key' ? call.caller.credential.keyId : null;
  const mine = row !== undefined && (userId !== null ? row.user_id === userId : row.user_id === null && row.api_key_id === keyId);
  if (row === undefined || !mine || !reachesWorkspace(call.caller, row.workspace_id)) throw errors.notFound('History export not found.');
  return { id: row.id, createdAt: row.created_at, workspaceId: row.workspace_id, maxId: row.max_id, query: JSON.parse(row.query) as HistoryQuery };
}

/**
 * One page of an export's records, oldest first, with what its maker may see now in the context
 * the export was made in: an export never shows more than its maker could list.
 */
export function historyExportPage(call: Call, historyExport: HistoryExport, after: number | undefined, limit: number): Promise<HistoryRow[]> {
  const inContext: Call = { ...call, requestWorkspaceId: historyExport.workspaceId };
  return listHistory(inContext, { kind: 'site' }, { ...historyExport.query, maxId: historyExport.maxId }, {
    descending: false, limit, ...(after === undefined ? {} : { after }),
  });
}

/** Every record of an export, oldest first, read a batch at a time (for the downloads). */
export async function* historyExportRecords(call: Call, historyExport: HistoryExport): AsyncGenerator<HistoryRow> {
  let after: number | undefined;
  for (;;) {
    const rows = await historyExportPage(call, historyExport, after, EXPORT_BATCH);
    yield* rows;
    if (rows.length < EXPORT_BATCH) return;
    after = rows.at(-1)?.id;
  }
}
