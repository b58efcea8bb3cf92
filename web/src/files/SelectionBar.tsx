import { Button, Group, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { zipOf, type Entry } from '../api/files';
import { saveBlob } from './save-as';

/**
 * What can be done with the ticked rows at once: download them as one ZIP (the server streams it
 * through the person's own access, `POST /file_actions/zip`), move them, delete them. An action
 * one of them does not allow is disabled with the reason.
 */
export function SelectionBar({ entries, onClear, onMove, onDelete, onError }: {
  entries: Entry[];
  onClear(): void;
  onMove(): void;
  onDelete(): void;
  onError(message: string): void;
}) {
  const [zipping, setZipping] = useState(false);
  const mayDelete = entries.every((e) => e.permissions.includes('d'));
  const mayRead = entries.every((e) => e.permissions.includes(e.type === 'directory' ? 'l' : 'r'));
  const needsDelete = mayDelete ? undefined : 'Some of them you may not delete or move';

  async function downloadZip() {
    setZipping(true);
    try {
      const { blob, name } = await zipOf(entries.map((e) => e.path));
      saveBlob(blob, name);
    } catch (caught) {
      onError(caught instanceof Error ? `The ZIP could not be made: ${caught.message}` : 'The ZIP could not be made.');
    } finally {
      setZipping(false);
    }
  }

  return (
    <Paper withBorder p="xs" role="region" aria-label="Selected items">
      <Group gap="xs" justify="space-between">
        <Text size="sm" fw={600} aria-live="polite">{entries.length === 1 ? '1 item selected' : `${entries.length} items selected`}</Text>
        <Group gap="xs">
          <Button size="xs" variant="default" loading={zipping} disabled={!mayRead} title={mayRead ? undefined : 'Some of them you may not download'}
            onClick={() => void downloadZip()}>Download as ZIP</Button>
          <Button size="xs" variant="default" disabled={!mayDelete} title={needsDelete} onClick={onMove}>Move to…</Button>
          <Button size="xs" variant="default" color="red" disabled={!mayDelete} title={needsDelete} onClick={onDelete}>Delete</Button>
          <Button size="xs" variant="subtle" onClick={onClear}>Clear selection</Button>
        </Group>
      </Group>
    </Paper>
  );
}
