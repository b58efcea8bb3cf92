import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { HistoryQuery } from '../api/history';
import { ALL_SIGN_INS } from './labels';

/**
 * The History screen's filters as its address names them
 * (`/history?action=user_create&user=dana&folder=Team&from=2026-11-01&to=2026-11-24&interface=web`),
 * so a filtered view can be bookmarked, reloaded and shared, and Back returns to the view before.
 * Dates are the person's local days; `to` is included.
 */
export interface HistoryFilters {
  action: string;
  /** A user name, or `#` and a user id. */
  user: string;
  folder: string;
  file: string;
  from: string;
  to: string;
  interface: string;
  oldestFirst: boolean;
}

const TEXT_PARAMS = ['action', 'user', 'folder', 'file', 'from', 'to', 'interface'] as const;

export const NO_FILTERS: HistoryFilters = { action: '', user: '', folder: '', file: '', from: '', to: '', interface: '', oldestFirst: false };

export function filtersOf(params: URLSearchParams): HistoryFilters {
  const filters: HistoryFilters = { ...NO_FILTERS, oldestFirst: params.get('order') === 'oldest' };
  for (const name of TEXT_PARAMS) filters[name] = params.get(name)?.trim() ?? '';
  return filters;
}

/** The address of a History view: what the Files page links to, and what the filters write. */
export function historySearch(filters: Partial<HistoryFilters>): string {
  const params = new URLSearchParams();
  for (const name of TEXT_PARAMS) {
    const value = filters[name]?.trim();
    if (value !== undefined && value !== '') params.set(name, value);
  }
  if (filters.oldestFirst === true) params.set('order', 'oldest');
  const search = params.toString();
  return search === '' ? '' : `?${search}`;
}

export function hasFilters(filters: HistoryFilters): boolean {
  return TEXT_PARAMS.some((name) => filters[name] !== '');
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The start of a local day as an ISO date-time; undefined for anything but `YYYY-MM-DD`. */
function startOfDay(day: string, plusDays = 0): string | undefined {
  if (!DAY.test(day)) return undefined;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const start = new Date(year, month - 1, date + plusDays);
  return Number.isNaN(start.getTime()) ? undefined : start.toISOString();
}

/** What the API is asked for a view: sign-ins have their own list, a file its own; the rest are filters. */
export function queryOf(filters: HistoryFilters): HistoryQuery {
  const signIns = filters.action === ALL_SIGN_INS;
  const scope: HistoryQuery['scope'] = signIns ? { kind: 'login' } : filters.file !== '' ? { kind: 'file', path: filters.file } : { kind: 'all' };
  const byId = /^#(\d{1,10})$/.exec(filters.user);
  const query: HistoryQuery = { scope, oldestFirst: filters.oldestFirst };
  if (!signIns && filters.action !== '') query.action = filters.action;
  if (byId !== null) query.userId = Number(byId[1]);
  else if (filters.user !== '') query.username = filters.user;
  if (filters.folder !== '') query.folder = filters.folder.replace(/^\/+|\/+$/g, '');
  if (filters.file !== '' && scope.kind !== 'file') query.path = filters.file;
  if (filters.interface !== '') query.interface = filters.interface;
  const startAt = startOfDay(filters.from);
  const endAt = startOfDay(filters.to, 1);
  if (startAt !== undefined) query.startAt = startAt;
  if (endAt !== undefined) query.endAt = endAt;
  return query;
}

/** The filters in the address, and a way to change them that the Back button can undo. */
export function useHistoryFilters(): { filters: HistoryFilters; apply(next: HistoryFilters): void } {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const filters = useMemo(() => filtersOf(new URLSearchParams(search)), [search]);
  const apply = useCallback((next: HistoryFilters) => {
    const wanted = historySearch(next);
    // The same view again adds no step to Back.
    if (wanted.slice(1) !== historySearch(filtersOf(new URLSearchParams(search))).slice(1)) setParams(new URLSearchParams(wanted));
  }, [search, setParams]);
  return { filters, apply };
}
