import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { parentOf, searchBelow } from '../api/files';
import { entryUrl, shownName } from './Breadcrumbs';
import { useCursorPages } from '../paging/useCursorPages';
import { formatSize } from './format';

/** A result's folder as a person reads it: the root is All files, `_` the Workspaces folder. */
function whereInWords(path: string): string {
  const folder = parentOf(path);
  if (folder === '') return 'All files';
  return folder.split('/').map((_, i, parts) => shownName(parts.slice(0, i + 1).join('/'))).join(' / ');
}

/**
 * The files and folders whose name holds `text`, in `folder` and everything below it, as far as
 * the person may see them: the server searches its index of names, a page at a time on its cursor.
 */
export function SearchResults({ folder, text }: { folder: string; text: string }) {
  const fetchPage = useCallback(async (cursor: string | undefined, signal: AbortSignal) => {
    const page = await searchBelow(folder, text, cursor, signal);
    return { items: page.entries, next: page.next };
  }, [folder, text]);
  const { items: entries, loading, error, hasMore, loadMore, reload } = useCursorPages(fetchPage, 'The search did not work.');

  return (
    <Stack gap="xs" data-searching={String(loading)}>
      {error !== undefined && (
        <Alert color="red" role="alert" title="The search did not work">
          {error} <Button variant="subtle" size="xs" onClick={reload}>Try again</Button>
        </Alert>
      )}
      {entries.length > 0 && (
        <ul aria-label="Search results" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {entries.map((entry) => (
            <li key={entry.path} data-result={entry.path} style={{ padding: '6px 0', borderBottom: '1px solid var(--mantine-color-default-border)', wordBreak: 'break-all' }}>
              <Anchor component={Link} to={entryUrl(entry)} fw={500}>{entry.display_name}</Anchor>
              <Text size="xs" c="dimmed">
                {entry.type === 'directory' ? 'Folder' : `File, ${formatSize(entry.size)}`} in {whereInWords(entry.path)}
              </Text>
            </li>
          ))}
        </ul>
      )}
      {!loading && error === undefined && entries.length === 0 && (
        <Center py="xl"><Text c="dimmed">Nothing here or below has a name with “{text}” in it.</Text></Center>
      )}
      {loading && <Center py="md"><Loader size="sm" aria-label="Searching" /></Center>}
      {hasMore && !loading && (
        <Center py="sm"><Button variant="subtle" onClick={loadMore}>Load more</Button></Center>
      )}
    </Stack>
  );
}
