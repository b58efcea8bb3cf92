import { Type } from 'typebox';
import { errors } from '../errors/catalogue.js';
import { parseIsoTimeInput } from '../lib/iso-time-input.js';
import { isRecordId } from '../lib/record-id.js';
import type { SortDirection } from '../lib/sorted-page.js';
import { RecordId } from './schemas.js';

/**
 * The list parameters the Files.com SDKs send on a listing, one level of brackets each
 * (`sort_by[name]=asc`, `filter[email]=a@b.c`, `filter_prefix[username]=ann`,
 * `filter_gt[last_login_at]=2026-01-01T00:00:00Z`, `search=ann`), read against what a listing
 * honours. A field the listing does not know is refused with its name, and so is a field the SDK
 * documents for the listing but Atrium does not keep (`notOffered`, with the reason): a filter
 * that was accepted and ignored would hand back the whole list as if it matched.
 */

/**
 * How a `filter[...]` value is read: text as sent, `true`/`false`, a record id (1 and up), a
 * Workspace id (0, the Default Workspace, and up), an ISO-8601 time.
 */
export type FilterValueType = 'text' | 'boolean' | 'id' | 'workspace' | 'time';

export interface ListParameterSpec {
  /** The listing's name in messages (`users`, `groups`). */
  readonly listing: string;
  /** `sort_by[<field>]` names it honours. */
  readonly sortable: readonly string[];
  /** `filter[<field>]` names it honours, each with the type of its value. */
  readonly equals: Readonly<Record<string, FilterValueType>>;
  /** `filter_prefix[<field>]` names it honours (text). */
  readonly prefix: readonly string[];
  /** `filter_gt`, `filter_gteq`, `filter_lt`, `filter_lteq` field names it honours. */
  readonly ranges: Readonly<Record<string, 'time'>>;
  /** Fields the SDK documents for this listing that Atrium does not keep, and why. */
  readonly notOffered: Readonly<Record<string, string>>;
}

export type FilterValue = string | boolean | number;

/** A range on one field, each bound a time in milliseconds. */
export interface RangeBounds {
  gt?: number;
  gteq?: number;
  lt?: number;
  lteq?: number;
}

export interface ListParameters {
  sort: { field: string; direction: SortDirection } | undefined;
  equals: Readonly<Record<string, FilterValue>>;
  prefix: Readonly<Record<string, string>>;
  ranges: Readonly<Record<string, RangeBounds>>;
}

/**
 * The query-string schema of a listing's parameters, to spread into its querystring: each field
 * it honours is declared with its type (the OpenAPI document lists them, and a record id beyond
 * the bound is refused like any other), and any other field still reaches readListParameters,
 * which refuses it by name instead of letting it be dropped.
 */
export function listParameterQuery(spec: ListParameterSpec) {
  const fields = (names: Record<string, FilterValueType>, description: string) =>
    Type.Optional(Type.Object(Object.fromEntries(Object.entries(names).map(([name, type]) => [name, Type.Optional(valueSchema(type))])), { description }));
  const textFields = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, 'text' as const]));
  return {
    sort_by: Type.Optional(Type.Record(Type.String(), Type.String(), { description: `one field and its direction, \`sort_by[<field>]=asc|desc\`: ${spec.sortable.join(', ')}` })),
    filter: fields(spec.equals, 'records whose field equals the value'),
    filter_prefix: fields(textFields(spec.prefix), 'records whose field starts with the text'),
    filter_gt: fields(spec.ranges, 'records whose field is after the time'),
    filter_gteq: fields(spec.ranges, 'records whose field is at or after the time'),
    filter_lt: fields(spec.ranges, 'records whose field is before the time'),
    filter_lteq: fields(spec.ranges, 'records whose field is at or before the time'),
  };
}

function valueSchema(type: FilterValueType) {
  switch (type) {
    case 'text': return Type.String({ maxLength: 1024 });
    case 'boolean': return Type.Boolean();
    case 'id': return RecordId({ minimum: 1 });
    case 'workspace': return RecordId();
    case 'time': return Type.String({ maxLength: 64, description: 'ISO-8601, such as 2026-01-02T03:04:05Z' });
  }
}

type Given = Record<string, unknown>;
interface ListQuery {
  sort_by?: Record<string, string>;
  filter?: Given;
  filter_prefix?: Given;
  filter_gt?: Given;
  filter_gteq?: Given;
  filter_lt?: Given;
  filter_lteq?: Given;
}

const RANGE_PARAMETERS = ['filter_gt', 'filter_gteq', 'filter_lt', 'filter_lteq'] as const;
const RANGE_BOUND = { filter_gt: 'gt', filter_gteq: 'gteq', filter_lt: 'lt', filter_lteq: 'lteq' } as const;

/** A field name as it goes into a message: bounded, so a hostile name cannot make the answer large. */
const shown = (name: string) => name.slice(0, 100);

export function readListParameters(spec: ListParameterSpec, query: ListQuery): ListParameters {
  return {
    sort: readSort(spec, query.sort_by),
    equals: readEquals(spec, query.filter ?? {}),
    prefix: readFields(spec, 'filter_prefix', query.filter_prefix ?? {}, spec.prefix),
    ranges: readRanges(spec, query),
  };
}

function readSort(spec: ListParameterSpec, sortBy: Record<string, string> | undefined): ListParameters['sort'] {
  const given = Object.entries(sortBy ?? {});
  if (given.length === 0) return undefined;
  if (given.length > 1) throw errors.multipleSortParamsNotAllowed();
  const [field, rawDirection] = given[0] as [string, string];
  if (spec.sortable.length === 0) throw errors.invalidSortField(`The ${spec.listing} take no sort_by: they come in the order they were made.`);
  if (!spec.sortable.includes(field)) {
    throw errors.invalidSortField(`The ${spec.listing} cannot be sorted by "${shown(field)}"${reasonNotOffered(spec, field)}: sort by one of ${spec.sortable.join(', ')}.`);
  }
  const direction = rawDirection.toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') throw errors.paramsInvalid({ [`sort_by[${shown(field)}]`]: ['must be asc or desc'] });
  return { field, direction };
}

function readEquals(spec: ListParameterSpec, filter: Given): Record<string, FilterValue> {
  const names = Object.keys(spec.equals);
  const read: Record<string, FilterValue> = {};
  for (const [field, raw] of Object.entries(filter)) {
    const type = Object.hasOwn(spec.equals, field) ? spec.equals[field] : undefined;
    if (type === undefined) throw unknownField(spec, 'filter', field, names);
    read[field] = readValue(`filter[${field}]`, type, raw);
  }
  return read;
}

function readFields(spec: ListParameterSpec, parameter: string, given: Given, honoured: readonly string[]): Record<string, string> {
  const read: Record<string, string> = {};
  for (const [field, raw] of Object.entries(given)) {
    if (!honoured.includes(field)) throw unknownField(spec, parameter, field, honoured);
    read[field] = readValue(`${parameter}[${field}]`, 'text', raw) as string;
  }
  return read;
}

function readRanges(spec: ListParameterSpec, query: ListQuery): Record<string, RangeBounds> {
  const names = Object.keys(spec.ranges);
  const ranges: Record<string, RangeBounds> = {};
  for (const parameter of RANGE_PARAMETERS) {
    for (const [field, raw] of Object.entries(query[parameter] ?? {})) {
      if (!Object.hasOwn(spec.ranges, field)) throw unknownField(spec, parameter, field, names);
      const bounds = ranges[field] ?? (ranges[field] = {});
      bounds[RANGE_BOUND[parameter]] = readValue(`${parameter}[${field}]`, 'time', raw) as number;
    }
  }
  return ranges;
}

/** A value as the schema left it: coerced where it declared the field, the query's text otherwise. */
function readValue(parameter: string, type: FilterValueType, raw: unknown): FilterValue {
  if (type === 'boolean' && typeof raw === 'boolean') return raw;
  if ((type === 'id' || type === 'workspace') && typeof raw === 'number') {
    if (!isRecordId(raw) || (type === 'id' && raw === 0)) throw errors.paramsInvalid({ [shown(parameter)]: ['must be a record id'] });
    return raw;
  }
  if (typeof raw !== 'string') throw errors.paramsInvalid({ [shown(parameter)]: ['must be a single value'] });
  switch (type) {
    case 'text':
      return raw;
    case 'boolean': {
      const lowered = raw.toLowerCase();
      if (lowered === 'true') return true;
      if (lowered === 'false') return false;
      throw errors.paramsInvalid({ [shown(parameter)]: ['must be true or false'] });
    }
    case 'id':
    case 'workspace': {
      const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
      if (!isRecordId(id) || (type === 'id' && id === 0)) throw errors.paramsInvalid({ [shown(parameter)]: ['must be a record id'] });
      return id;
    }
    case 'time': {
      // ISO-8601 as every date on the wire is written (a bare date is midnight UTC), read as every
      // time a request sends is: never in the server's own zone, never rolled over from 02-30.
      const time = parseIsoTimeInput(raw);
      if (time === undefined) throw errors.paramsInvalid({ [shown(parameter)]: ['must be an ISO-8601 time, such as 2026-01-02T03:04:05Z'] });
      return time;
    }
  }
}

function reasonNotOffered(spec: ListParameterSpec, field: string): string {
  const reason = Object.hasOwn(spec.notOffered, field) ? spec.notOffered[field] : undefined;
  return reason === undefined ? '' : ` (${reason})`;
}

function unknownField(spec: ListParameterSpec, parameter: string, field: string, honoured: readonly string[]) {
  const choice = honoured.length === 0 ? `the ${spec.listing} take no ${parameter}` : `use one of ${honoured.join(', ')}`;
  return errors.invalidFilterField(`${parameter}[${shown(field)}] is not a filter of the ${spec.listing}${reasonNotOffered(spec, field)}: ${choice}.`);
}

/**
 * The range a time field's parameters ask for together: `filter[<field>]` (within that second,
 * as times go out without milliseconds) and the `filter_gt`/`gteq`/`lt`/`lteq` bounds, all of
 * which must hold. Undefined when none names the field.
 */
export function timeRangeOf(parameters: ListParameters, field: string): RangeBounds | undefined {
  const equal = parameters.equals[field];
  const bounds = parameters.ranges[field];
  if (equal === undefined && bounds === undefined) return undefined;
  const second: RangeBounds = typeof equal === 'number' ? { gteq: equal, lteq: equal + 999 } : {};
  const later = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.max(x, y));
  const earlier = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.min(x, y));
  const other = bounds ?? {};
  const range: RangeBounds = {};
  const gt = later(second.gt, other.gt);
  const gteq = later(second.gteq, other.gteq);
  const lt = earlier(second.lt, other.lt);
  const lteq = earlier(second.lteq, other.lteq);
  if (gt !== undefined) range.gt = gt;
  if (gteq !== undefined) range.gteq = gteq;
  if (lt !== undefined) range.lt = lt;
  if (lteq !== undefined) range.lteq = lteq;
  return range;
}
