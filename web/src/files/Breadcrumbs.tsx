import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';
import { encodePath, parentOf } from '../api/files';
import { dropTargetProps } from './row-drag';

export function folderUrl(path: string): string {
  return path === '' ? '/files' : `/files/${encodePath(path)}`;
}

/** The address parameter of a file shown in its folder's preview (`/files/Reports?open=summary.pdf`). */
export const OPEN_PARAMETER = 'open';

/** Where an entry is seen: a folder opened; a file in its folder, shown in the preview. */
export function entryUrl(entry: { path: string; type: string; display_name: string }): string {
  if (entry.type === 'directory') return folderUrl(entry.path);
  return `${folderUrl(parentOf(entry.path))}?${OPEN_PARAMETER}=${encodeURIComponent(entry.display_name)}`;
}

/** The folder at the Default Workspace's root that holds every Custom Workspace (`_/Workspaces/<id>`). */
export const WORKSPACES_FOLDER = '_';

/** A folder's name as a person reads it: the root's `_` is the Workspaces folder. */
export function shownName(path: string): string {
  return path === WORKSPACES_FOLDER ? 'Workspaces' : path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Where the person is: the root, then each folder on the way, the last one not a link. Rows of
 * the listing dropped on a folder of the way move there (`onDropInto`).
 */
export function FolderBreadcrumbs({ path, onDropInto }: { path: string; onDropInto?(folder: string, paths: string[]): void }) {
  const segments = path === '' ? [] : path.split('/');
  const items = [{ name: 'All files', path: '' }, ...segments.map((_, i) => {
    const at = segments.slice(0, i + 1).join('/');
    return { name: shownName(at), path: at };
  })];
  return (
    <nav aria-label="Folder path">
      <MantineBreadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap' }}>
        {items.map((item, i) =>
          i === items.length - 1 ? (
            <Text key={item.path} fw={600} aria-current="page" style={{ wordBreak: 'break-all' }}>{item.name}</Text>
          ) : (
            <Anchor key={item.path} component={Link} to={folderUrl(item.path)} style={{ wordBreak: 'break-all' }}
              {...(onDropInto === undefined ? {} : dropTargetProps(item.path, (paths) => onDropInto(item.path, paths)))}>{item.name}</Anchor>
          ),
        )}
      </MantineBreadcrumbs>
    </nav>
  );
}
