import { Alert, Button, Center, Loader, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import type { Entry } from '../api/files';
import { listVersions, restoreVersion, type FileVersion } from '../api/versions';
import { formatSize, formatTime } from './format';
import { useWhoNames } from './useWhoNames';

/**
 * A file's earlier contents (docs/files.md, "Versions"): each kept when an overwrite replaced it,
 * through any door, newest first, with when it was written, its size and its author. Restoring
 * one makes it the content again, and the content it replaces becomes a version in turn, so the
 * list is read again after each restore.
 */
export function VersionsDialog({ entry, onClose, onRestored }: { entry: Entry; onClose(): void; onRestored(): void }) {
  const [versions, setVersions] = useState<FileVersion[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [busy, setBusy] = useState<number | undefined>();
  const whoName = useWhoNames((versions ?? []).map((v) => v.created_by_id));
  // Restoring writes the file: the dialog says so up front rather than failing.
  const mayWrite = entry.permissions.includes('w');

  const load = useCallback((signal?: AbortSignal) => {
    listVersions(entry.path, signal).then(
      (found) => { if (signal?.aborted !== true) setVersions(found); },
      (caught: unknown) => { if (signal?.aborted !== true) setError(caught instanceof Error ? caught.message : 'The versions could not be listed.'); },
    );
  }, [entry.path]);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const restore = async (version: FileVersion) => {
    setError(undefined);
    setNotice(undefined);
    setBusy(version.id);
    try {
      await restoreVersion(version.id);
      setNotice(`Restored the version written ${formatTime(version.mtime)}. The content it replaced is now the newest version.`);
      onRestored();
      load();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The version could not be restored.');
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`Versions of ${entry.display_name}`} size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          Earlier contents of this file, kept when it was replaced, newest first.{mayWrite ? '' : ' You may not change this file, so you cannot restore them.'}
        </Text>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        {notice !== undefined && <Alert color="green" role="status">{notice}</Alert>}
        {versions === undefined && error === undefined && <Center py="md"><Loader size="sm" aria-label="Loading" /></Center>}
        {versions?.length === 0 && <Text c="dimmed">No earlier versions: this file has not been replaced since it was made.</Text>}
        {versions !== undefined && versions.length > 0 && (
          <Table.ScrollContainer minWidth={460}>
            <Table verticalSpacing="xs">
              <VisuallyHidden component="caption">Earlier versions, newest first</VisuallyHidden>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Written</Table.Th>
                  <Table.Th scope="col">Size</Table.Th>
                  <Table.Th scope="col">By</Table.Th>
                  <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {versions.map((version) => (
                  <Table.Tr key={version.id} data-version={version.id}>
                    <Table.Td>
                      {formatTime(version.mtime)}
                      <Text size="xs" c="dimmed">replaced {formatTime(version.replaced_at)}</Text>
                    </Table.Td>
                    <Table.Td>{formatSize(version.size)}</Table.Td>
                    <Table.Td>{whoName(version.created_by_id)}</Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="default" disabled={!mayWrite} loading={busy === version.id}
                        aria-label={`Restore the version written ${formatTime(version.mtime)}`} onClick={() => void restore(version)}>Restore</Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Modal>
  );
}
