// History: who did what (docs/history.md). Every feature records its changes here, in the change's
// own transaction; the front doors list, export and verify the records. The only entrance.

export { type Actor, actorOf, appendEvents, appendEventsAlone, type HistoryEvent, recordHistory, type Recording } from './record.js';
export { chainHash } from './chain-hash.js';
export {
  ATRIUM_ACTIONS, FAILURE_TYPES, type FailureType, FILE_ACTIONS, FILES_COM_ACTIONS, HISTORY_ACTIONS, HISTORY_INTERFACES,
  type HistoryAction, type HistoryInterface, LOGIN_ACTIONS,
} from './values.js';
export { type HistoryListing, type HistoryPageRequest, type HistoryQuery, listHistory } from './listing.js';
export { createHistoryExport, getHistoryExport, type HistoryExport, historyExportPage, historyExportRecords } from './exports.js';
export { type HistoryRow } from '../repositories/history.js';
export { type ChainVerdict, verifyHistoryChain } from './verify.js';
export { pruneHistory, PRUNE_BATCH } from './retention.js';
