import { Type, type Static } from 'typebox';
import { framePathOf, toRequestPath, type PathFrame } from '../../../access/index.js';
import type { HistoryRow } from '../../../history/index.js';
import { isoTime } from '../../../lib/time.js';

/** Files.com's History object (docs/models/History.md of its SDK). */
export const HistoryBody = Type.Object({
  id: Type.Integer(),
  path: Type.String({ description: 'the path acted on, as the request context names it; empty for an action on no path' }),
  when: Type.String({ format: 'date-time' }),
  destination: Type.Union([Type.String(), Type.Null()]),
  display: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
  source: Type.Union([Type.String(), Type.Null()]),
  targets: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  user_is_from_parent_site: Type.Boolean(),
  action: Type.String(),
  failure_type: Type.String(),
  interface: Type.String(),
  automation_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Atrium addition: the automation whose run made the change' }),
  automation_name: Type.Union([Type.String(), Type.Null()], { description: 'Atrium addition: that automation\'s name when it ran' }),
});
export type HistoryBody = Static<typeof HistoryBody>;

/**
 * A recorded site path as the caller's frame shows it (relative to its Workspace root, or to a
 * Partner user's Partner root). One outside the frame can only be the caller's own record: made
 * in another context, shown whole; or, for a Partner user, made before its Partner's root folder
 * moved, shown as its Workspace shows it.
 */
export function shownPath(frame: PathFrame, path: string | null): string | null {
  return path === null ? null : (framePathOf(frame, path) ?? toRequestPath(frame.workspaceId, path) ?? path);
}

/**
 * A record as the caller's frame shows it: paths relative to the selected Workspace (a Partner
 * user's Partner root), as every other answer gives them (shownPath for a record outside it).
 */
export function historyBody(frame: PathFrame, row: HistoryRow): HistoryBody {
  const shown = (path: string | null) => shownPath(frame, path);
  return {
    id: row.id,
    path: shown(row.path) ?? '',
    when: isoTime(row.created_at),
    destination: shown(row.destination),
    display: row.display,
    ip: row.ip,
    source: shown(row.source),
    targets: row.targets === null ? null : (JSON.parse(row.targets) as Record<string, unknown>),
    user_id: row.user_id,
    username: row.username,
    user_is_from_parent_site: false,
    action: row.action,
    failure_type: row.failure_type ?? 'none',
    interface: row.interface,
    automation_id: row.automation_id ?? null,
    automation_name: row.automation_name ?? null,
  };
}
