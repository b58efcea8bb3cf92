import { ActionIcon, Anchor, Checkbox, Menu, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { explain } from '../api/explain';
import type { Entry, FolderSort, SortField } from '../api/files';
import { useNarrow } from '../layout/useNarrow';
import { folderUrl, shownName, WORKSPACES_FOLDER } from './Breadcrumbs';
import { capabilityWords, formatSize, formatTime } from './format';
import { draggedPaths, dropTargetProps, startDrag } from './row-drag';

export type EntryAction = 'open' | 'download' | 'rename' | 'move' | 'copy' | 'delete' | 'explain' | 'reach' | 'permissions' | 'history' | 'versions' | 'share' | 'request-files';

/** Which rows are ticked, by path, and how the table changes it. */
export interface Selection {
  selected: ReadonlySet<string>;
  toggle(path: string): void;
  setAll(paths: string[], on: boolean): void;
}

/**
 * Whether a row's menu offers a folder's permissions and sharing: `all` for an administrator of
 * the Workspace, who manages and may share everything; `ask` otherwise, where the server is asked
 * (explain) when the menu opens, since a Folder Admin manages only the folders under their admin
 * grant, and a user shares only where a `bundle` grant lets them.
 */
export type PermissionsOffer = 'all' | 'ask';

/**
 * One row per entry. Names are always rendered as text, whatever characters they hold. An action
 * the caller's letters do not allow is shown disabled with the reason, never offered in vain. A
 * file's name opens it; a row may be ticked, and dragged onto a folder's row to move it there
 * (with the other ticked rows when it is one of them).
 */
export function EntryTable({ entries, onAction, offerPermissions, sort, onSort, selection, onDropInto }: {
  entries: Entry[];
  onAction(entry: Entry, action: EntryAction): void;
  offerPermissions: PermissionsOffer;
  sort: FolderSort;
  onSort(field: SortField): void;
  selection: Selection;
  /** Rows dropped on a folder: move them into it. */
  onDropInto(folder: string, paths: string[]): void;
}) {
  // Opening a subfolder keeps the order the person chose.
  const { search } = useLocation();
  const header = { sort, onSort };
  const { selected } = selection;
  const ticked = entries.filter((e) => selected.has(e.path)).length;
  const narrow = useNarrow();
  return (
    // On a phone: the tick, the name (when it was modified beneath a file's), its size and its menu;
    // its type shows in its size's place for a folder, and what the caller may do is in the menu's explanation.
    <Table.ScrollContainer minWidth={narrow ? 0 : 560}>
      <Table highlightOnHover verticalSpacing="xs">
        <VisuallyHidden component="caption">Folder contents, folders first</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w={36}>
              <Checkbox aria-label="Select all" checked={ticked > 0 && ticked === entries.length} indeterminate={ticked > 0 && ticked < entries.length}
                onChange={(event) => selection.setAll(entries.map((e) => e.path), event.currentTarget.checked)} />
            </Table.Th>
            <SortableHeader field="path" {...header}>Name</SortableHeader>
            <Table.Th scope="col" visibleFrom="sm">Type</Table.Th>
            <SortableHeader field="size" align="right" {...header}>Size</SortableHeader>
            <SortableHeader field="modified_at_datetime" visibleFrom="sm" {...header}>Modified</SortableHeader>
            <Table.Th scope="col" visibleFrom="sm">You may</Table.Th>
            <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => {
            const access = capabilityWords(entry.permissions, entry.type);
            const folder = entry.type === 'directory';
            const drop = folder ? dropTargetProps(entry.path, (paths) => onDropInto(entry.path, paths)) : {};
            return (
            <Table.Tr key={entry.path} data-entry={entry.display_name} data-selected={selected.has(entry.path) || undefined}
              draggable={entry.permissions.includes('d')}
              onDragStart={(event) => startDrag(event, selected.has(entry.path) ? draggedPaths(entries, selected) : [entry.path])}
              {...drop}>
              <Table.Td>
                {/* A plain checkbox: 200 rows of the component library's would cost more than the rest of the row. */}
                <input type="checkbox" className="row-check" aria-label={`Select ${entry.display_name}`} checked={selected.has(entry.path)} onChange={() => selection.toggle(entry.path)} />
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>
                {folder ? (
                  <>
                    <Anchor component={Link} to={{ pathname: folderUrl(entry.path), search }} inherit className="entry-name">{shownName(entry.path)}</Anchor>
                    {entry.path === WORKSPACES_FOLDER && <Text size="xs" c="dimmed">The Custom Workspaces' files, a folder for each</Text>}
                  </>
                ) : (
                  <button type="button" className="file-name entry-name" onClick={() => onAction(entry, 'open')}>{entry.display_name}</button>
                )}
                {narrow && !folder && <Text size="xs" c="dimmed">{formatTime(entry.mtime)}</Text>}
              </Table.Td>
              <Table.Td visibleFrom="sm">{folder ? 'Folder' : 'File'}</Table.Td>
              <Table.Td ta="right">{narrow && folder ? 'Folder' : formatSize(entry.size)}</Table.Td>
              <Table.Td visibleFrom="sm">{formatTime(entry.mtime)}</Table.Td>
              <Table.Td visibleFrom="sm" title={access.sentence} aria-label={access.sentence} data-access={entry.permissions}>{access.short}</Table.Td>
              <Table.Td>
                <EntryMenu entry={entry} onAction={onAction} offerPermissions={offerPermissions} />
              </Table.Td>
            </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * A column header that sorts the listing: a button (so it works from the keyboard) inside the
 * header cell, which says its order to assistive technology with `aria-sort`.
 */
function SortableHeader({ field, align, visibleFrom, sort, onSort, children }: {
  field: SortField; align?: 'right'; visibleFrom?: 'sm'; sort: FolderSort; onSort(field: SortField): void; children: ReactNode;
}) {
  const active = sort.field === field;
  const order = sort.direction === 'asc' ? 'ascending' : 'descending';
  return (
    <Table.Th scope="col" ta={align} visibleFrom={visibleFrom} aria-sort={active ? order : 'none'}>
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
        <Menu.Item disabled={!mayDelete} onClick={() => onAction(entry, 'rename')}>
          Rename{mayDelete ? '' : ' (needs delete permission)'}
        </Menu.Item>
        <Menu.Item disabled={!mayDelete} onClick={() => onAction(entry, 'move')}>
          Move to…{mayDelete ? '' : ' (needs delete permission)'}
        </Menu.Item>
        <Menu.Item onClick={() => onAction(entry, 'explain')}>Why can this be reached?</Menu.Item>
        <Menu.Item onClick={() => onAction(entry, 'history')}>History</Menu.Item>
        {entry.type === 'file' && (
          <Menu.Item disabled={!mayRead} onClick={() => onAction(entry, 'versions')}>
            Versions{mayRead ? '' : ' (needs read permission)'}
          </Menu.Item>
        )}
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
