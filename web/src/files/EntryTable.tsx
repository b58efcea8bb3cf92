import { ActionIcon, Anchor, Menu, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { explain } from '../api/explain';
import type { Entry, FolderSort, SortField } from '../api/files';
import { folderUrl } from './Breadcrumbs';
import { formatSize, formatTime, permissionLetters } from './format';

export type EntryAction = 'download' | 'move' | 'copy' | 'delete' | 'explain' | 'reach' | 'permissions' | 'history' | 'share' | 'request-files';

/**
 * Whether a row's menu offers a folder's permissions and sharing: `all` for an administrator of
 * the Workspace, who manages and may share everything; `ask` otherwise, where the server is asked
 * (explain) when the menu opens, since a Folder Admin manages only the folders under their admin
 * grant, and a user shares only where a `bundle` grant lets them.
 */
export type PermissionsOffer = 'all' | 'ask';

/**
 * One row per entry. Names are always rendered as text, whatever characters they hold. An action
 * the caller's letters do not allow is shown disabled with the reason, never offered in vain.
 */
export function EntryTable({ entries, onAction, offerPermissions, sort, onSort }: {
  entries: Entry[];
  onAction(entry: Entry, action: EntryAction): void;
  offerPermissions: PermissionsOffer;
  sort: FolderSort;
  onSort(field: SortField): void;
}) {
  // Opening a subfolder keeps the order the person chose.
  const { search } = useLocation();
  const header = { sort, onSort };
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table highlightOnHover verticalSpacing="xs">
        <VisuallyHidden component="caption">Folder contents, folders first</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <SortableHeader field="path" {...header}>Name</SortableHeader>
            <Table.Th scope="col">Type</Table.Th>
            <SortableHeader field="size" align="right" {...header}>Size</SortableHeader>
            <SortableHeader field="modified_at_datetime" {...header}>Modified</SortableHeader>
            <Table.Th scope="col"><abbr title="Your permissions: l list, r read, w write, d delete">Permissions</abbr></Table.Th>
            <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.path} data-entry={entry.display_name}>
              <Table.Td style={{ wordBreak: 'break-all' }}>
                {entry.type === 'directory' ? (
                  <Anchor component={Link} to={{ pathname: folderUrl(entry.path), search }} inherit>{entry.display_name}</Anchor>
                ) : (
                  <Text span inherit>{entry.display_name}</Text>
                )}
              </Table.Td>
              <Table.Td>{entry.type === 'directory' ? 'Folder' : 'File'}</Table.Td>
              <Table.Td ta="right">{formatSize(entry.size)}</Table.Td>
              <Table.Td>{formatTime(entry.mtime)}</Table.Td>
              <Table.Td ff="monospace" aria-label={`Permissions: ${entry.permissions || 'none'}`}>{permissionLetters(entry.permissions)}</Table.Td>
              <Table.Td>
                <EntryMenu entry={entry} onAction={onAction} offerPermissions={offerPermissions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * A column header that sorts the listing: a button (so it works from the keyboard) inside the
 * header cell, which says its order to assistive technology with `aria-sort`.
 */
function SortableHeader({ field, align, sort, onSort, children }: { field: SortField; align?: 'right'; sort: FolderSort; onSort(field: SortField): void; children: ReactNode }) {
  const active = sort.field === field;
  const order = sort.direction === 'asc' ? 'ascending' : 'descending';
  return (
    <Table.Th scope="col" ta={align} aria-sort={active ? order : 'none'}>
      <UnstyledButton onClick={() => onSort(field)} fw={700} fz="inherit" style={{ whiteSpace: 'nowrap' }}>
        {children}
        <span aria-hidden="true" style={{ display: 'inline-block', width: '1.2em', textAlign: 'center' }}>{active ? (sort.direction === 'asc' ? '▲' : '▼') : ''}</span>
      </UnstyledButton>
    </Table.Th>
  );
}

/**
 * A row's actions. Until first opened it is a plain button: a folder page of 200 rows would
 * otherwise build 200 menus, which costs more than the rest of the page.
 */
function EntryMenu(props: { entry: Entry; onAction(entry: Entry, action: EntryAction): void; offerPermissions: PermissionsOffer }) {
  const [used, setUsed] = useState(false);
  if (!used) {
    return (
      <ActionIcon variant="subtle" aria-label={`Actions for ${props.entry.display_name}`} aria-haspopup="menu" onClick={() => setUsed(true)}>
        <span aria-hidden="true">⋯</span>
      </ActionIcon>
    );
  }
  return <OpenedEntryMenu {...props} />;
}

function OpenedEntryMenu({ entry, onAction, offerPermissions }: { entry: Entry; onAction(entry: Entry, action: EntryAction): void; offerPermissions: PermissionsOffer }) {
  const mayRead = entry.permissions.includes('r');
  const mayDelete = entry.permissions.includes('d');
  const { manages, shares } = useCapabilities(entry, offerPermissions);
  // This button replaced the one just pressed: the focus stays where the person left it.
  const target = useRef<HTMLButtonElement>(null);
  useEffect(() => target.current?.focus(), []);
  // No focus placeholder: opened from the keyboard, the first item takes the focus at once
  // (the menu button pattern), and an arrow key moves from there.
  return (
    <Menu position="bottom-end" withinPortal defaultOpened withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <ActionIcon ref={target} variant="subtle" aria-label={`Actions for ${entry.display_name}`}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-manages={manages === undefined ? 'checking' : String(manages)} data-shares={shares === undefined ? 'checking' : String(shares)}>
        {entry.type === 'file' && (
          <Menu.Item disabled={!mayRead} onClick={() => onAction(entry, 'download')}>
            Download{mayRead ? '' : ' (needs read permission)'}
          </Menu.Item>
        )}
        <Menu.Item disabled={!mayDelete} onClick={() => onAction(entry, 'move')}>
          Rename or move{mayDelete ? '' : ' (needs delete permission)'}
        </Menu.Item>
        <Menu.Item onClick={() => onAction(entry, 'explain')}>Why can this be reached?</Menu.Item>
        <Menu.Item onClick={() => onAction(entry, 'history')}>History</Menu.Item>
        {manages === true && <Menu.Item onClick={() => onAction(entry, 'reach')}>Who can reach this?</Menu.Item>}
        {manages === true && <Menu.Item onClick={() => onAction(entry, 'permissions')}>Permissions</Menu.Item>}
        {shares === true && <Menu.Item onClick={() => onAction(entry, 'share')}>Share</Menu.Item>}
        {shares === true && entry.type === 'directory' && <Menu.Item onClick={() => onAction(entry, 'request-files')}>Request files</Menu.Item>}
        <Menu.Item disabled={!mayRead} onClick={() => onAction(entry, 'copy')}>
          Copy{mayRead ? '' : ' (needs read permission)'}
        </Menu.Item>
        <Menu.Item color="red" disabled={!mayDelete} onClick={() => onAction(entry, 'delete')}>
          Delete{mayDelete ? '' : ' (needs delete permission)'}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * Whether the caller manages the grants on a folder entry (never offered on a file) and may share
 * the entry by a link; undefined while the server is asked.
 */
function useCapabilities(entry: Entry, offer: PermissionsOffer): { manages: boolean | undefined; shares: boolean | undefined } {
  const [known, setKnown] = useState<{ manages: boolean; shares: boolean } | undefined>(
    offer === 'all' ? { manages: entry.type === 'directory', shares: true } : undefined,
  );
  useEffect(() => {
    if (offer === 'all') return;
    const controller = new AbortController();
    explain(entry.path, undefined, { type: entry.type, signal: controller.signal }).then(
      ({ capabilities }) => setKnown({ manages: entry.type === 'directory' && capabilities.includes('manage'), shares: capabilities.includes('share') }),
      () => undefined,
    );
    return () => controller.abort();
  }, [entry.path, entry.type, offer]);
  return { manages: known?.manages, shares: known?.shares };
}
