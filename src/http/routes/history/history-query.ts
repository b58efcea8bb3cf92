import { Type, type Static } from 'typebox';
import { errors } from '../../../errors/catalogue.js';
import { HISTORY_ACTIONS, HISTORY_INTERFACES, FAILURE_TYPES, type HistoryAction, type HistoryQuery } from '../../../history/index.js';
import { paginationQuery } from '../../pagination.js';
import { RecordId } from '../../schemas.js';

const MAX_TEXT = 5000;
const text = (description: string) => Type.Optional(Type.String({ maxLength: MAX_TEXT, description }));

/** The query every History list takes: Files.com's parameters, and Atrium's added filters. */
export const HistoryListQuery = Type.Object({
  ...paginationQuery,
  start_at: text('only records at or after this date-time (ISO 8601)'),
  end_at: text('only records before this date-time (ISO 8601)'),
  display: text('accepted for compatibility; records always carry their display text'),
  sort_by: Type.Optional(Type.Record(Type.String(), Type.String(), { description: '`sort_by[created_at]=asc|desc`; newest first by default' })),
  filter: Type.Optional(Type.Object({
    user_id: Type.Optional(RecordId()),
    path: text('the path or destination is exactly this path'),
    folder: text('the path or destination is this folder or lies below it'),
    action: Type.Optional(Type.Union(HISTORY_ACTIONS.map((value) => Type.Literal(value)), { description: 'Atrium addition: one action' })),
    interface: Type.Optional(Type.Union(HISTORY_INTERFACES.map((value) => Type.Literal(value)), { description: 'Atrium addition: one front door' })),
    failure_type: Type.Optional(Type.Union(FAILURE_TYPES.map((value) => Type.Literal(value)), { description: 'Atrium addition' })),
    username: text('Atrium addition: records of the user with this username at the time'),
    ip: text('Atrium addition: records from this client address'),
  })),
  filter_prefix: Type.Optional(Type.Object({ path: text('the path starts with these characters') })),
  // The SDKs' other list parameters, which History has no field for: refused by name below.
  filter_gt: Type.Optional(Type.Record(Type.String(), Type.String())),
  filter_gteq: Type.Optional(Type.Record(Type.String(), Type.String())),
  filter_lt: Type.Optional(Type.Record(Type.String(), Type.String())),
  filter_lteq: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type HistoryListQuery = Static<typeof HistoryListQuery>;

/** The sort of a History list: by when it happened (the chain's order), newest first unless asked. */
export function historyDescending(sortBy: Record<string, string> | undefined): boolean {
  const given = Object.entries(sortBy ?? {});
  if (given.length === 0) return true;
  if (given.length > 1) throw errors.multipleSortParamsNotAllowed();
  const [field, direction] = given[0] as [string, string];
  if (field !== 'created_at') throw errors.invalidSortField(`History is sorted by created_at only, not "${field.slice(0, 100)}".`);
  const lowered = direction.toLowerCase();
  if (lowered !== 'asc' && lowered !== 'desc') throw errors.paramsInvalid({ sort_by: ['the direction of created_at must be asc or desc'] });
  return lowered === 'desc';
}

/** A date-time parameter in epoch milliseconds, or a `request-params-invalid` answer. */
export function dateTimeParam(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  // ISO 8601 date or date-time; Date.parse alone would take many other spellings.
  const time = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(time)) throw errors.paramsInvalid({ [name]: ['must be an ISO 8601 date-time, such as 2026-01-31T12:00:00Z'] });
  return time;
}

const FILTERS = ['user_id', 'path', 'folder', 'action', 'interface', 'failure_type', 'username', 'ip'];

/**
 * A filter field History does not have is refused by name rather than dropped: an ignored filter
 * would answer every record as if it matched. Times are narrowed with start_at and end_at.
 */
function refuseUnknownFilters(query: HistoryListQuery): void {
  const given: [string, Record<string, unknown> | undefined, readonly string[]][] = [
    ['filter', query.filter, FILTERS], ['filter_prefix', query.filter_prefix, ['path']],
    ['filter_gt', query.filter_gt, []], ['filter_gteq', query.filter_gteq, []], ['filter_lt', query.filter_lt, []], ['filter_lteq', query.filter_lteq, []],
  ];
  for (const [parameter, fields, known] of given) {
    const unknown = Object.keys(fields ?? {}).find((field) => !known.includes(field));
    if (unknown === undefined) continue;
    const choice = known.length === 0 ? 'History takes start_at and end_at for times' : `use one of ${known.join(', ')}`;
    throw errors.invalidFilterField(`${parameter}[${unknown.slice(0, 100)}] is not a filter of History: ${choice}.`);
  }
}

export function historyQueryOf(query: HistoryListQuery): HistoryQuery {
  refuseUnknownFilters(query);
  const f = query.filter ?? {};
  const startAt = dateTimeParam('start_at', query.start_at);
  const endAt = dateTimeParam('end_at', query.end_at);
  return {
    ...(f.user_id === undefined ? {} : { userId: f.user_id }),
    ...(f.username === undefined ? {} : { username: f.username }),
    ...(f.action === undefined ? {} : { action: f.action as HistoryAction }),
    ...(f.interface === undefined ? {} : { interface: f.interface }),
    ...(f.failure_type === undefined ? {} : { failureType: f.failure_type }),
    ...(f.ip === undefined ? {} : { ip: f.ip }),
    ...(f.path === undefined ? {} : { path: f.path }),
    ...(f.folder === undefined ? {} : { folder: f.folder }),
    ...(query.filter_prefix?.path === undefined ? {} : { pathPrefix: query.filter_prefix.path }),
    ...(startAt === undefined ? {} : { startAt }),
    ...(endAt === undefined ? {} : { endAt }),
  };
}
