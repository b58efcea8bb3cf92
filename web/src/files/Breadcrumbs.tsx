import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';
import { encodePath } from '../api/files';

export function folderUrl(path: string): string {
  return path === '' ? '/files' : `/files/${encodePath(path)}`;
}

/** Where the person is: the root, then each folder on the way, the last one not a link. */
export function FolderBreadcrumbs({ path }: { path: string }) {
  const segments = path === '' ? [] : path.split('/');
  const items = [{ name: 'All files', path: '' }, ...segments.map((name, i) => ({ name, path: segments.slice(0, i + 1).join('/') }))];
  return (
    <nav aria-label="Folder path">
      <MantineBreadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap' }}>
        {items.map((item, i) =>
          i === items.length - 1 ? (
            <Text key={item.path} fw={600} aria-current="page" style={{ wordBreak: 'break-all' }}>{item.name}</Text>
          ) : (
            <Anchor key={item.path} component={Link} to={folderUrl(item.path)} style={{ wordBreak: 'break-all' }}>{item.name}</Anchor>
          ),
        )}
      </MantineBreadcrumbs>
    </nav>
  );
}
