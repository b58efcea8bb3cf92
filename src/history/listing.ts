import { assertUserHistoryVisible, historyPartsFor, pathFrameOf, prefixKeyInFrame, siteInFrame, type Call, type PathFrame } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { historyPage, type HistoryFilters } from '../repositories/history-query.js';
import type { HistoryRow } from '../repositories/history.js';
import { FILE_ACTIONS, LOGIN_ACTIONS, type HistoryAction } from './values.js';

/** Which History list is asked for: Files.com's five (GET /history, /history/login, ...). */
export type HistoryListing =
  | { kind: 'site' }
  | { kind: 'login' }
  | { kind: 'user'; userId: number }
  | { kind: 'folder'; path: string }
  | { kind: 'file'; path: string };

/** Narrowing a client asks for; paths as the request context names them (a Partner user's, in its Partner root). */
export interface HistoryQuery {
  userId?: number;
  username?: string;
  action?: HistoryAction;
  interface?: string;
  failureType?: string;
  ip?: string;
  path?: string;
  folder?: string;
  pathPrefix?: string;
  source?: string;
  destination?: string;
  startAt?: number;
  endAt?: number;
  maxId?: number;
}

export interface HistoryPageRequest {
  descending: boolean;
  after?: number;
  limit: number;
}

/**
 * A page of the records the caller may see (visibility.ts) in one listing, narrowed by the query.
 * Answers up to `limit` rows; ask for one more than a page to learn whether another exists.
 */
export async function listHistory(call: Call, listing: HistoryListing, query: HistoryQuery, page: HistoryPageRequest): Promise<HistoryRow[]> {
  if (listing.kind === 'user') await assertUserHistoryVisible(call, listing.userId);
  const filters = filtersOf(await pathFrameOf(call.db, call.caller, call.requestWorkspaceId), listing, query);
  if (filters === 'nothing') return [];
  return historyPage(call.db, { parts: await historyPartsFor(call, FILE_ACTIONS), filters, descending: page.descending, limit: page.limit, ...(page.after === undefined ? {} : { after: page.after }) });
}

function filtersOf(frame: PathFrame, listing: HistoryListing, query: HistoryQuery): HistoryFilters | 'nothing' {
  const keyOf = (path: string) => siteInFrame(frame, path).key;
  const filters: HistoryFilters = {
    ...(query.userId === undefined ? {} : { userId: query.userId }),
    ...(query.username === undefined ? {} : { username: query.username }),
    ...(query.action === undefined ? {} : { actions: [query.action] }),
    ...(query.interface === undefined ? {} : { interface: query.interface }),
    ...(query.failureType === undefined ? {} : { failureType: query.failureType }),
    ...(query.ip === undefined ? {} : { ip: query.ip }),
    ...(query.path === undefined ? {} : { pathKey: keyOf(query.path) }),
    ...(query.folder === undefined ? {} : { folderKey: keyOf(query.folder) }),
    ...(query.pathPrefix === undefined ? {} : { pathPrefix: prefixKeyInFrame(frame, query.pathPrefix) }),
    ...(query.source === undefined ? {} : { sourceKey: keyOf(query.source) }),
    ...(query.destination === undefined ? {} : { destinationKey: keyOf(query.destination) }),
    ...(query.startAt === undefined ? {} : { startAt: query.startAt }),
    ...(query.endAt === undefined ? {} : { endAt: query.endAt }),
    ...(query.maxId === undefined ? {} : { maxId: query.maxId }),
  };
  switch (listing.kind) {
    case 'site':
      return filters;
    case 'login': {
      const actions = LOGIN_ACTIONS.filter((action) => filters.actions === undefined || filters.actions.includes(action));
      return actions.length === 0 ? 'nothing' : { ...filters, actions };
    }
    case 'user':
      if (filters.userId !== undefined && filters.userId !== listing.userId) return 'nothing';
      return { ...filters, userId: listing.userId };
    case 'folder':
      if (filters.folderKey !== undefined) throw errors.paramsInvalid({ 'filter[folder]': ['cannot be combined with a folder\'s history; the path names the folder'] });
      return { ...filters, folderKey: keyOf(listing.path) };
    case 'file':
      if (filters.pathKey !== undefined) throw errors.paramsInvalid({ 'filter[path]': ['cannot be combined with a file\'s history; the path names the file'] });
      return { ...filters, pathKey: keyOf(listing.path) };
  }
}
