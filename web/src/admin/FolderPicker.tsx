import { Alert, Button, Group, Paper, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useEffect, useState } from 'react';
import { DEFAULT_SORT, joinPath, listFolder, parentOf, PAGE_SIZE } from '../api/files';

/**
 * A folder of the current Workspace, typed or picked: the field takes any path (a folder that does
 * not exist yet may be typed where the server creates it, as for a Partner's root folder), and
 * *Browse* opens a small list of the folders the caller can see, to walk down and choose one.
 * Paths are relative to the Workspace root, as the folders API and grants write them.
 */
export function FolderPicker({ label, description, value, onChange, required, rootLabel }: {
  label: string;
  description: string;
  value: string;
  onChange(path: string): void;
  required?: boolean;
  /** The root may be chosen too, under this name (a move to the top folder); not offered without it. */
  rootLabel?: string;
}) {
  const [browsing, setBrowsing] = useState<string | undefined>();
  return (
    <Stack gap={4}>
      <Group align="flex-end" wrap="nowrap">
        <TextInput label={label} description={description} required={required} value={value} style={{ flex: 1 }}
          onChange={(e) => onChange(e.currentTarget.value)} />
        <Button variant="default" onClick={() => setBrowsing(browsing === undefined ? trimmed(value) : undefined)} aria-expanded={browsing !== undefined}>
          {browsing === undefined ? 'Browse…' : 'Close folders'}
        </Button>
      </Group>
      {browsing !== undefined && (
        <FolderBrowser label={label} folder={browsing} onOpen={setBrowsing} rootLabel={rootLabel}
          onChoose={(path) => { onChange(path); setBrowsing(undefined); }} />
      )}
    </Stack>
  );
}

function trimmed(path: string): string {
  return path.trim().replace(/^\/+|\/+$/g, '');
}

/** The subfolders of one folder: open one to go down, go up, or choose the folder shown. */
function FolderBrowser({ label, folder, onOpen, onChoose, rootLabel }: { label: string; folder: string; onOpen(path: string): void; onChoose(path: string): void; rootLabel?: string | undefined }) {
  const [listing, setListing] = useState<{ folder: string; names: string[]; more: boolean } | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    const controller = new AbortController();
    setError(undefined);
    listFolder(folder, DEFAULT_SORT, undefined, controller.signal).then(
      (page) => setListing({
        folder,
        names: page.entries.filter((e) => e.type === 'directory').map((e) => e.display_name),
        more: page.next !== undefined,
      }),
      (caught: unknown) => {
        if (controller.signal.aborted) return;
        // A typed folder that does not exist yet: say so, and offer the way back up.
        setListing({ folder, names: [], more: false });
        setError(caught instanceof Error ? caught.message : 'The folder could not be listed.');
      },
    );
    return () => controller.abort();
  }, [folder]);

  const shown = listing?.folder === folder ? listing : undefined;
  const where = folder === '' ? 'the Workspace root' : folder;
  return (
    <Paper withBorder p="xs" role="group" aria-label={`Folders for ${label}`}>
      <Stack gap="xs">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>In <strong>{where}</strong></Text>
        {error !== undefined && <Alert color="orange" role="alert">{error}</Alert>}
        {shown !== undefined && shown.names.length === 0 && error === undefined && <Text size="sm" c="dimmed">No folders here.</Text>}
        {shown !== undefined && shown.names.length > 0 && (
          <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0, maxHeight: 220, overflowY: 'auto' }}>
            {shown.names.map((name) => (
              <li key={name}>
                <UnstyledButton onClick={() => onOpen(joinPath(folder, name))} aria-label={`Open ${name}`} style={{ wordBreak: 'break-all' }}>
                  <Text size="sm" component="span">{name}<span aria-hidden="true"> ›</span></Text>
                </UnstyledButton>
              </li>
            ))}
          </Stack>
        )}
        {shown?.more === true && <Text size="xs" c="dimmed">The first {PAGE_SIZE} entries are shown; type a path to reach another folder.</Text>}
        <Group gap="xs">
          {folder !== '' && <Button size="xs" variant="default" onClick={() => onOpen(parentOf(folder))}>Up</Button>}
          {folder !== '' && <Button size="xs" onClick={() => onChoose(folder)}>Choose {folder.split('/').pop()}</Button>}
          {folder === '' && rootLabel !== undefined && <Button size="xs" onClick={() => onChoose('')}>Choose {rootLabel}</Button>}
        </Group>
      </Stack>
    </Paper>
  );
}
