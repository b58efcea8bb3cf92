import { Type, type Static } from 'typebox';
import { errors } from '../../../errors/catalogue.js';
import { HISTORY_ACTIONS, HISTORY_INTERFACES, FAILURE_TYPES, type HistoryAction, type HistoryQuery } from '../../../history/index.js';
import { listParameterQuery, type ListParameters } from '../../list-parameters.js';
import { paginationQuery } from '../../pagination.js';
import { HISTORY_LIST_PARAMETERS } from './history-list-parameters.js';
import { RecordId } from '../../schemas.js';

const MAX_TEXT = 5000;
const text = (description: string) => Type.Optional(Type.String({ maxLength: MAX_TEXT, description }));

/**
 * The query every History list takes: Files.com's parameters, and Atrium's added filters. The
 * list parameters come from HISTORY_LIST_PARAMETERS like every listing's; `filter` and
 * `filter_prefix` are declared here again, more precisely (the actions, doors and failure types
 * as choices, paths as long as a path may be), for the same fields.
 */
export const HistoryListQuery = Type.Object({
  ...paginationQuery,
  start_at: text('only records at or after this date-time (ISO 8601)'),
  end_at: text('only records before this date-time (ISO 8601)'),
  display: text('accepted for compatibility; records always carry their display text'),
  ...listParameterQuery(HISTORY_LIST_PARAMETERS),
  filter: Type.Optional(Type.Object({
    user_id: Type.Optional(RecordId({ minimum: 1 })),
    path: text('the path or destination is exactly this path'),
    folder: text('the path or destination is this folder or lies below it'),
    action: Type.Optional(Type.Union(HISTORY_ACTIONS.map((value) => Type.Literal(value)), { description: 'Atrium addition: one action' })),
    interface: Type.Optional(Type.Union(HISTORY_INTERFACES.map((value) => Type.Literal(value)), { description: 'Atrium addition: one front door' })),
    failure_type: Type.Optional(Type.Union(FAILURE_TYPES.map((value) => Type.Literal(value)), { description: 'Atrium addition' })),
    username: text('Atrium addition: records of the user with this username at the time'),
    ip: text('Atrium addition: records from this client address'),
  })),
  filter_prefix: Type.Optional(Type.Object({ path: text('the path starts with these characters') })),
});
export type HistoryListQuery = Static<typeof HistoryListQuery>;

/** The sort of a History list: by when it happened (the chain's order), newest first unless asked. */
export function historyDescending(parameters: ListParameters): boolean {
  return parameters.sort?.direction !== 'asc';
}

/** A date-time parameter in epoch milliseconds, or a `request-params-invalid` answer. */
export function dateTimeParam(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  // ISO 8601 date or date-time; Date.parse alone would take many other spellings.
  const time = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(time)) throw errors.paramsInvalid({ [name]: ['must be an ISO 8601 date-time, such as 2026-01-31T12:00:00Z'] });
  return time;
}

/** The History query the parameters ask for; `parameters` were read by readListParameters, which refused any field History does not have. */
export function historyQueryOf(query: HistoryListQuery, parameters: ListParameters): HistoryQuery {
  const f = parameters.equals as Partial<Record<keyof typeof HISTORY_LIST_PARAMETERS.equals, string> & { user_id: number }>;
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
    ...(parameters.prefix.path === undefined ? {} : { pathPrefix: parameters.prefix.path }),
    ...(startAt === undefined ? {} : { startAt }),
    ...(endAt === undefined ? {} : { endAt }),
  };
}
