import { ActionIcon, Anchor, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { Fragment, useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { HistoryRecord } from '../api/history';
import { interfaceLabel, recordLabel } from './labels';
import { RecordDetails } from './RecordDetails';
import { inReadersPaths, plainDetails, unnamedUserIds } from './plain-details';
import { usernamesOf } from '../api/users';
import { useWorkspaceNames } from '../layout/WorkspaceName';
import { useNarrow } from '../layout/useNarrow';
import { useSession } from '../session/session';
import { historySearch, type HistoryFilters } from './useHistoryFilters';

const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : whenFormat.format(date);
}

const COLUMNS = 8;

/**
 * The recorded actions, one row each, in the person's local time (the exact UTC time in the
 * tooltip). Every name, path and text is rendered as text. A user's name narrows the view to them.
 */
export function HistoryTable({ records, filters, onToggleOrder }: { records: HistoryRecord[]; filters: HistoryFilters; onToggleOrder(): void }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) => setOpen((previous) => {
    const next = new Set(previous);
    if (!next.delete(id)) next.add(id);
    return next;
  });
  const order = filters.oldestFirst ? 'ascending' : 'descending';
  const { workspaceId } = useSession();
  const workspaceName = useWorkspaceNames();
  // Members a group change added are recorded by id: named here, as far as the reader may see them.
  const [names, setNames] = useState<ReadonlyMap<number, string>>(new Map());
  const wanted = unnamedUserIds(records).filter((id) => !names.has(id)).join(',');
  useEffect(() => {
    if (wanted === '') return;
    const controller = new AbortController();
    usernamesOf(wanted.split(',').map(Number), controller.signal).then((found) => setNames((known) => new Map([...known, ...found])), () => undefined);
    return () => controller.abort();
  }, [wanted]);
  const here = workspaceId ?? 0;
  const narrow = useNarrow();
  return (
    // On a phone: when (with who beneath), what was done (with where beneath), and the button that
    // opens the rest; the details, interface and IP address are in the wide table and in the record.
    <Table.ScrollContainer minWidth={narrow ? 0 : 900}>
      <Table highlightOnHover verticalSpacing="xs">
        <VisuallyHidden component="caption">Recorded actions, {filters.oldestFirst ? 'oldest' : 'newest'} first</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" aria-sort={order}>
              <UnstyledButton onClick={onToggleOrder} fw={700} fz="inherit" style={{ whiteSpace: 'nowrap' }}>
                When<span aria-hidden="true" style={{ display: 'inline-block', width: '1.2em', textAlign: 'center' }}>{filters.oldestFirst ? '▲' : '▼'}</span>
              </UnstyledButton>
            </Table.Th>
            <Table.Th scope="col" visibleFrom="sm">User</Table.Th>
            <Table.Th scope="col">Action</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">Path</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">Details</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">Interface</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">IP</Table.Th>
            <Table.Th scope="col"><VisuallyHidden>More</VisuallyHidden></Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((record) => {
            const expanded = open.has(record.id);
            const detailsId = `history-record-${record.id}`;
            const who = record.username === null ? (
              <Text span c="dimmed" inherit>{record.user_id === null ? 'Site key' : `#${record.user_id}`}</Text>
            ) : (
              <Anchor component={Link} to={{ search: historySearch({ ...filters, user: record.username }) }} inherit title={`Only ${record.username}'s actions`}>
                {record.username}
              </Anchor>
            );
            const where = inReadersPaths(`${record.path ?? ''}${record.destination !== null && record.destination !== record.path ? ` → ${record.destination}` : ''}`, here, workspaceName);
            return (
              <Fragment key={record.id}>
                <Table.Tr data-record={record.id} data-action={record.action}>
                  <Table.Td style={{ whiteSpace: narrow ? undefined : 'nowrap' }}>
                    <time dateTime={record.when} title={record.when}>{formatWhen(record.when)}</time>
                    {narrow && <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{who}</Text>}
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'break-word' }} visibleFrom="sm">{who}</Table.Td>
                  <Table.Td>
                    {recordLabel(record)}
                    {narrow && <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>{where}</Text>}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }} visibleFrom="sm">{where}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }} title={record.display} visibleFrom="sm">{plainDetails(record, names, here, workspaceName)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">{interfaceLabel(record.interface)}</Table.Td>
                  <Table.Td ff="monospace" fz="xs" style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">{record.ip ?? ''}</Table.Td>
                  <Table.Td>
                    <ActionIcon variant="subtle" aria-expanded={expanded} aria-controls={expanded ? detailsId : undefined}
                      aria-label={`Details of record ${record.id}`} onClick={() => toggle(record.id)}>
                      <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
                {expanded && (
                  <Table.Tr id={detailsId}>
                    <Table.Td colSpan={COLUMNS}>
                      <RecordDetails record={record} unshown={narrow ? [
                        ['Details', plainDetails(record, names, here, workspaceName)],
                        ['Interface', interfaceLabel(record.interface)],
                        ['IP address', record.ip],
                      ] : []} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
