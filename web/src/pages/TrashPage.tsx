import { Alert, Anchor, Button, Center, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { listTrash, purgeTrashed, restoreTrashed, type Restored, type TrashEntry } from '../api/trash';
import { entryUrl } from '../files/Breadcrumbs';
import { ConfirmDialog } from '../files/dialogs';
import { formatSize, formatTime } from '../files/format';
import { useWhoNames } from '../files/useWhoNames';
import { useCursorPages } from '../paging/useCursorPages';
import { RowActions } from '../layout/RowActions';
import { useNarrow } from '../layout/useNarrow';

const errorText = (caught: unknown, fallback: string) => (caught instanceof Error ? caught.message : fallback);

/** What a deletion held, in words: a file's size; a folder's size and how many files and folders. */
function contentsInWords(entry: TrashEntry): string {
  if (entry.type === 'file') return formatSize(entry.size);
  const folders = entry.entries - entry.files;
  return `${formatSize(entry.size)}: ${entry.files} file${entry.files === 1 ? '' : 's'}, ${folders} folder${folders === 1 ? '' : 's'}`;
}

/** A page of the trash, as the list reads it. */
async function fetchTrashPage(cursor: string | undefined, signal: AbortSignal) {
  const page = await listTrash(cursor, signal);
  return { items: page.entries, next: page.next };
}

/**
 * The deletions the person could make now, whichever door deleted them (docs/files.md, "The
 * trash"), newest first, a page at a time on the API's cursor, each to restore where it was or
 * to delete for good. The server decides what is seen: delete permission at the path it had.
 */
export function TrashPage() {
  const trash = useCursorPages(fetchTrashPage, 'The trash could not be read.');
  const { items: entries, loading, update } = trash;
  const [error, setError] = useState<string | undefined>();
  const [restored, setRestored] = useState<Restored | undefined>();
  const narrow = useNarrow();
  const [purging, setPurging] = useState<TrashEntry | undefined>();
  const [busy, setBusy] = useState<number | undefined>();
  const whoName = useWhoNames(entries.map((e) => e.deleted_by_id));

  const restore = async (entry: TrashEntry) => {
    setError(undefined);
    setRestored(undefined);
    setBusy(entry.id);
    try {
      const answer = await restoreTrashed(entry.id);
      update((shown) => shown.filter((e) => e.id !== entry.id));
      setRestored(answer);
    } catch (caught) {
      setError(errorText(caught, 'It could not be restored.'));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <Stack gap="md" data-loading={String(loading)}>
      <Title order={1} size="h2">Trash</Title>
      <Text size="sm" c="dimmed">
        What was deleted, by you or by others, where you may delete. Restore puts it back where it was; after the site's retention time it is removed for good.
      </Text>
      {trash.error !== undefined && <Alert color="red" role="alert">{trash.error}</Alert>}
      {error !== undefined && <Alert color="red" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setError(undefined)}>{error}</Alert>}
      {restored !== undefined && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setRestored(undefined)} style={{ wordBreak: 'break-all' }}>
          Restored to <Anchor component={Link} to={entryUrl({ ...restored.file, path: restored.path })} inherit>{restored.path}</Anchor>
          {restored.renamed ? '. Something else now stands where it was, so it was restored beside it under this new name.' : '.'}
        </Alert>
      )}
      {entries.length > 0 && (
        // On a phone: where it was, when, and one menu of actions; who deleted it and its size are in the wide table.
        <Table.ScrollContainer minWidth={narrow ? 0 : 640}>
          <Table verticalSpacing="xs">
            <VisuallyHidden component="caption">Deleted files and folders, newest first</VisuallyHidden>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Was at</Table.Th>
                <Table.Th scope="col">Deleted</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">By</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Size</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id} data-trash={entry.path}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {entry.path}
                    <Text size="xs" c="dimmed">{entry.type === 'directory' ? 'Folder' : 'File'}, kept until {formatTime(entry.expires_at)}</Text>
                  </Table.Td>
                  <Table.Td>{formatTime(entry.deleted_at)}</Table.Td>
                  <Table.Td visibleFrom="sm">{whoName(entry.deleted_by_id)}</Table.Td>
                  <Table.Td visibleFrom="sm">{contentsInWords(entry)}</Table.Td>
                  <Table.Td>
                    <RowActions row={entry.path} actions={[
                      { label: 'Restore', ariaLabel: `Restore ${entry.path}`, disabled: busy === entry.id, onClick: () => void restore(entry) },
                      { label: 'Delete for good', ariaLabel: `Delete ${entry.path} for good`, onClick: () => setPurging(entry) },
                    ]} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!loading && trash.error === undefined && entries.length === 0 && (
        <Center py="xl"><Text c="dimmed">The trash is empty: nothing you may restore was deleted.</Text></Center>
      )}
      {loading && <Center py="md"><Loader size="sm" aria-label="Loading" /></Center>}
      {trash.hasMore && !loading && (
        <Center py="sm"><Button variant="subtle" onClick={trash.loadMore}>Load more</Button></Center>
      )}
      {purging !== undefined && (
        <ConfirmDialog opened title={purging.type === 'directory' ? 'Delete folder for good' : 'Delete file for good'} confirmLabel="Delete for good"
          onClose={() => setPurging(undefined)}
          onConfirm={async () => {
            await purgeTrashed(purging.id);
            update((shown) => shown.filter((e) => e.id !== purging.id));
          }}>
          Delete <strong>{purging.path}</strong>{purging.type === 'directory' ? ' and everything in it' : ''} for good, with its earlier versions? This one cannot be undone.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
