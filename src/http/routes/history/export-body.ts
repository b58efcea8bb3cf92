import { Type, type Static } from 'typebox';
import type { PathFrame } from '../../../access/index.js';
import type { HistoryExport } from '../../../history/index.js';
import type { HistoryRow } from '../../../history/index.js';
import { isoTime } from '../../../lib/time.js';
import { shownPath } from './history-body.js';

/** Files.com's HistoryExport (docs/models/HistoryExport.md of its SDK). */
export const HistoryExportBody = Type.Object({
  id: Type.Integer(),
  history_version: Type.String(),
  start_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  end_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  status: Type.String({ description: 'always `ready`: results are read when downloaded' }),
  query_action: Type.Union([Type.String(), Type.Null()]),
  query_interface: Type.Union([Type.String(), Type.Null()]),
  query_user_id: Type.Union([Type.String(), Type.Null()]),
  query_path: Type.Union([Type.String(), Type.Null()]),
  query_folder: Type.Union([Type.String(), Type.Null()]),
  query_src: Type.Union([Type.String(), Type.Null()]),
  query_destination: Type.Union([Type.String(), Type.Null()]),
  query_ip: Type.Union([Type.String(), Type.Null()]),
  query_username: Type.Union([Type.String(), Type.Null()]),
  query_failure_type: Type.Union([Type.String(), Type.Null()]),
  results_url: Type.String({ description: 'the results as CSV; the same URL with .jsonl in place of .csv gives JSON Lines' }),
});

/** The version of Atrium's History record format, as Files.com's `history_version` names one. */
export const HISTORY_VERSION = 'atrium-1';

export function historyExportBody(historyExport: HistoryExport, resultsUrl: string): Static<typeof HistoryExportBody> {
  const q = historyExport.query;
  const iso = (time: number | undefined) => (time === undefined ? null : isoTime(time));
  return {
    id: historyExport.id,
    history_version: HISTORY_VERSION,
    start_at: iso(q.startAt),
    end_at: iso(q.endAt),
    status: 'ready',
    query_action: q.action ?? null,
    query_interface: q.interface ?? null,
    query_user_id: q.userId === undefined ? null : String(q.userId),
    query_path: q.path ?? null,
    query_folder: q.folder ?? null,
    query_src: q.source ?? null,
    query_destination: q.destination ?? null,
    query_ip: q.ip ?? null,
    query_username: q.username ?? null,
    query_failure_type: q.failureType ?? null,
    results_url: resultsUrl,
  };
}

/**
 * Files.com's HistoryExportResult (docs/models/HistoryExportResult.md), and two fields it lacks
 * that an auditor needs: `display`, the record's text, and `hash`, its link in the chain
 * (`atrium history verify`). `target_*` come from the record's targets where it names them.
 */
export const HistoryExportResultBody = Type.Object({
  id: Type.Integer(),
  created_at: Type.Integer({ description: 'Unix time, seconds' }),
  created_at_iso8601: Type.String(),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  file_id: Type.Null(),
  parent_id: Type.Null(),
  path: Type.Union([Type.String(), Type.Null()]),
  folder: Type.Union([Type.String(), Type.Null()]),
  src: Type.Union([Type.String(), Type.Null()]),
  destination: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  user_is_from_parent_site: Type.Boolean(),
  action: Type.String(),
  failure_type: Type.String(),
  interface: Type.String(),
  target_id: Type.Union([Type.Integer(), Type.Null()]),
  target_name: Type.Union([Type.String(), Type.Null()]),
  target_permission: Type.Union([Type.String(), Type.Null()]),
  target_recursive: Type.Union([Type.Boolean(), Type.Null()]),
  target_username: Type.Union([Type.String(), Type.Null()]),
  target_user_id: Type.Union([Type.Integer(), Type.Null()]),
  display: Type.String(),
  hash: Type.String(),
});
export type HistoryExportResultBody = Static<typeof HistoryExportResultBody>;

/** The CSV's columns, in order: the result's fields. */
export const RESULT_COLUMNS = Object.keys(HistoryExportResultBody.properties) as (keyof HistoryExportResultBody)[];

export function historyExportResultBody(frame: PathFrame, row: HistoryRow): HistoryExportResultBody {
  const shown = (path: string | null) => shownPath(frame, path);
  const targets = row.targets === null ? {} : (JSON.parse(row.targets) as Record<string, unknown>);
  const path = shown(row.path);
  const slash = path === null ? -1 : path.lastIndexOf('/');
  return {
    id: row.id,
    created_at: Math.floor(row.created_at / 1000),
    created_at_iso8601: isoTime(row.created_at),
    user_id: row.user_id,
    file_id: null,
    parent_id: null,
    path,
    folder: path === null ? null : slash === -1 ? '' : path.slice(0, slash),
    src: shown(row.source),
    destination: shown(row.destination),
    ip: row.ip,
    username: row.username,
    user_is_from_parent_site: false,
    action: row.action,
    failure_type: row.failure_type ?? 'none',
    interface: row.interface,
    target_id: integerOrNull(targets.id),
    target_name: stringOrNull(targets.name ?? targets.username ?? targets.group_name),
    target_permission: stringOrNull(targets.permission),
    target_recursive: typeof targets.recursive === 'boolean' ? targets.recursive : null,
    target_username: stringOrNull(targets.username),
    target_user_id: integerOrNull(targets.user_id),
    display: row.display,
    hash: row.hash,
  };
}

const integerOrNull = (value: unknown) => (Number.isSafeInteger(value) ? (value as number) : null);
const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);
