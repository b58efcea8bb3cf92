import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FolderPicker } from '../admin/FolderPicker';
import type { Entry } from '../api/files';
import { moveInto } from './move-entries';

/**
 * Moves one or several entries into a folder picked (or typed) with the folder picker the
 * administration pages use. The server checks each move as the API does (delete where it is,
 * write where it goes); a refusal is shown in its words and the dialog stays open.
 */
export function MoveDialog({ entries, from, onClose, onMoved }: { entries: Entry[]; from: string; onClose(): void; onMoved(): void }) {
  const [destination, setDestination] = useState(from);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const what = entries.length === 1 ? entries[0]!.display_name : `${entries.length} items`;
  const target = destination.trim().replace(/^\/+|\/+$/g, '');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const outcome = await moveInto(entries, target);
    setBusy(false);
    if (outcome.moved > 0) onMoved();
    if (outcome.error === undefined) onClose();
    else setError(outcome.error);
  }

  return (
    <Modal opened onClose={onClose} title={`Move ${what}`} styles={{ title: { overflowWrap: 'anywhere', fontWeight: 600 } }}>
      <form onSubmit={(event) => void submit(event)}>
        <Stack>
          {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
          <FolderPicker label="Move to folder" description="Browse to the folder, or type its path (folders separated by /); empty is the top folder."
            value={destination} onChange={setDestination} rootLabel="All files" />
          {target === from && <Text size="sm" c="dimmed">That is where {entries.length === 1 ? 'it is' : 'they are'} now.</Text>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy} disabled={target === from}>Move here</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
