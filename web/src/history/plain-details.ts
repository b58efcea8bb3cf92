import type { HistoryRecord } from '../api/history';

/**
 * A record's details in the reader's words (the API's `display` stays as it is): the members a
 * group change added or removed by name rather than "1 member(s) added", and a path inside a
 * Workspace's root folder (`_/Workspaces/3/Reports`) as the reader writes it: bare in the
 * Workspace they work in, prefixed by the Workspace's name in another.
 */
export function plainDetails(record: HistoryRecord, names: ReadonlyMap<number, string>, workspaceId: number, workspaceName: (id: number) => string): string {
  let text = record.display;
  const targets = record.targets ?? {};
  const who = (list: unknown) => (Array.isArray(list) ? list : [])
    .map((m: { user_id?: number; username?: string | null }) => m.username ?? (m.user_id === undefined ? undefined : names.get(m.user_id)) ?? `user #${m.user_id ?? '?'}`)
    .join(', ');
  text = text.replace(/\b(\d+) member\(s\) added\b/, () => `added ${who(targets['members_added'])}`);
  text = text.replace(/\b(\d+) member\(s\) removed\b/, () => `removed ${who(targets['members_removed'])}`);
  return inReadersPaths(text, workspaceId, workspaceName);
}

/** `_/Workspaces/N/rest` as the reader writes it, working in `workspaceId`. */
export function inReadersPaths(text: string, workspaceId: number, workspaceName: (id: number) => string): string {
  return text.replace(/\/?_\/Workspaces\/(\d+)(\/|\b)/g, (_match, id: string, slash: string) => {
    const n = Number(id);
    if (n === workspaceId) return slash === '/' ? '' : '/';
    return `${workspaceName(n)}: ${slash === '/' ? '' : '/'}`;
  });
}

/** The user ids a page of records names without their names (group members added), to look up. */
export function unnamedUserIds(records: readonly HistoryRecord[]): number[] {
  const ids = new Set<number>();
  for (const record of records) {
    const added = record.targets?.['members_added'];
    if (Array.isArray(added)) for (const m of added as { user_id?: number }[]) if (typeof m.user_id === 'number') ids.add(m.user_id);
  }
  return [...ids];
}
