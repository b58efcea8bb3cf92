import { Alert, Box, Button, CloseButton, FileButton, Group, NativeSelect, Paper, Progress, Stack, Text } from '@mantine/core';
import { useCallback, useRef, useState, type DragEvent } from 'react';
import { formatSize } from '../files/format';
import { LinkError, uploadToLink, type Link } from './api';
import { useUploadFolders } from './useUploadFolders';

interface LinkUploadItem {
  id: number;
  /** As the visitor named it: the file's name, below the folders it was dropped in. */
  name: string;
  size: number;
  sent: number;
  state: 'queued' | 'sending' | 'done' | 'cancelled' | 'failed';
  /** The name the server stored it as, which differs when the name was taken. */
  storedAs?: string;
  error?: string;
}

/** A file to send, and the folder below the drop target it goes into ('' when none). */
interface Picked {
  file: File;
  folder: string;
}

const STATE_TEXT: Record<LinkUploadItem['state'], string> = {
  queued: 'Waiting',
  sending: 'Uploading',
  done: 'Uploaded',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

function joined(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/** Every file below a dropped folder, with its folder relative to the drop. */
async function filesOf(entry: FileSystemEntry, folder: string): Promise<Picked[]> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    return [{ file, folder }];
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const children: FileSystemEntry[] = [];
  // A directory reader hands its entries out in batches, until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    children.push(...batch);
  }
  const below = joined(folder, entry.name);
  return (await Promise.all(children.map((child) => filesOf(child, below)))).flat();
}

/**
 * The link's drop zone and file picker. Files go one after another, each with its own progress
 * bar, and each ends with the name it was stored as or the reason it was refused. A file larger
 * than the link takes is refused here, before a byte is sent.
 */
export function LinkUpload({ link, path, onUploaded }: { link: Link; path: string; onUploaded(): void }) {
  const targets = useUploadFolders(link, path);
  const [chosen, setChosen] = useState<string | undefined>();
  const folders = targets.kind === 'ready' ? targets.folders : [];
  const folder = chosen !== undefined && folders.includes(chosen) ? chosen : folders[0];
  const [items, setItems] = useState<LinkUploadItem[]>([]);
  const [notice, setNotice] = useState<string | undefined>();
  const [over, setOver] = useState(false);
  const controllers = useRef(new Map<number, AbortController>());
  const queue = useRef<Promise<void>>(Promise.resolve());
  const nextId = useRef(1);

  const update = useCallback((id: number, change: Partial<LinkUploadItem>) => {
    setItems((all) => all.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const start = useCallback((picked: Picked[]) => {
    if (folder === undefined) return;
    for (const { file, folder: below } of picked) {
      const id = nextId.current++;
      const name = joined(below, file.name);
      if (file.size > link.max_upload_bytes) {
        setItems((all) => [...all, { id, name, size: file.size, sent: 0, state: 'failed', error: `Too large: this link takes files up to ${formatSize(link.max_upload_bytes)}.` }]);
        continue;
      }
      const controller = new AbortController();
      controllers.current.set(id, controller);
      setItems((all) => [...all, { id, name, size: file.size, sent: 0, state: 'queued' }]);
      queue.current = queue.current.then(async () => {
        if (controller.signal.aborted) return;
        update(id, { state: 'sending' });
        try {
          const stored = await uploadToLink(link.code, joined(folder, below), file, (sent) => update(id, { sent }), controller.signal);
          update(id, { state: 'done', sent: file.size, storedAs: stored.name });
          onUploaded();
        } catch (caught) {
          if (controller.signal.aborted) update(id, { state: 'cancelled' });
          else update(id, { state: 'failed', error: caught instanceof LinkError || caught instanceof Error ? caught.message : 'The upload failed.' });
        } finally {
          controllers.current.delete(id);
        }
      });
    }
  }, [link.code, link.max_upload_bytes, folder, onUploaded, update]);

  const cancel = (id: number) => {
    controllers.current.get(id)?.abort();
    update(id, { state: 'cancelled' });
  };

  async function dropped(event: DragEvent) {
    const entries = Array.from(event.dataTransfer.items)
      .map((item) => item.webkitGetAsEntry())
      .filter((entry): entry is FileSystemEntry => entry !== null);
    const plainFiles = Array.from(event.dataTransfer.files);
    // Without entries (an older browser), the files are all there is.
    if (entries.length === 0) return start(plainFiles.map((file) => ({ file, folder: '' })));
    const folders = entries.filter((entry) => entry.isDirectory);
    if (folders.length > 0 && link.dont_allow_folders_in_uploads) {
      setNotice('This link takes files only, not folders: open the folder and drop the files in it.');
      return start(await Promise.all(entries.filter((entry) => entry.isFile).map((entry) => filesOf(entry, ''))).then((all) => all.flat()));
    }
    start((await Promise.all(entries.map((entry) => filesOf(entry, '')))).flat());
  }

  return (
    <Stack gap="sm" component="section" aria-label="Upload files">
      <Box
        data-testid="link-drop-zone"
        p="lg"
        onDragOver={(event) => {
          if (!event.dataTransfer.types.includes('Files')) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          setOver(false);
          if (!event.dataTransfer.types.includes('Files')) return;
          event.preventDefault();
          setNotice(undefined);
          void dropped(event);
        }}
        style={{
          border: `2px dashed ${over ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
          borderRadius: 'var(--mantine-radius-md)',
          textAlign: 'center',
        }}
      >
        <Stack gap="xs" align="center">
          {folders.length > 1 && (
            <NativeSelect label="Upload into" data={folders} value={folder} onChange={(event) => setChosen(event.currentTarget.value)} style={{ maxWidth: '100%' }} />
          )}
          <Text>{link.dont_allow_folders_in_uploads ? 'Drop files here to upload them' : 'Drop files or folders here to upload them'}</Text>
          <FileButton multiple disabled={folder === undefined} onChange={(files) => { setNotice(undefined); start(files.map((file) => ({ file, folder: '' }))); }}>
            {(props) => <Button {...props}>Choose files</Button>}
          </FileButton>
          <Text size="sm" c="dimmed">Up to {formatSize(link.max_upload_bytes)} a file.</Text>
        </Stack>
      </Box>
      {targets.kind === 'failed' && <Alert color="red" role="alert" title="Uploads cannot be sent">{targets.message}</Alert>}
      {targets.kind === 'ready' && folders.length === 0 && <Alert color="red" role="alert" title="Uploads cannot be sent">This link has no folder to upload into.</Alert>}
      {notice !== undefined && <Alert color="yellow" role="status">{notice}</Alert>}
      {items.length > 0 && (
        <Paper withBorder p="sm" aria-label="Uploads" component="section">
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600}>Uploads</Text>
              <Button variant="subtle" size="xs" onClick={() => setItems((all) => all.filter((u) => u.state === 'queued' || u.state === 'sending'))}>Clear finished</Button>
            </Group>
            {items.map((item) => <UploadRow key={item.id} item={item} onCancel={() => cancel(item.id)} />)}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

function UploadRow({ item, onCancel }: { item: LinkUploadItem; onCancel(): void }) {
  const percent = item.size === 0 ? (item.state === 'done' ? 100 : 0) : Math.round((item.sent / item.size) * 100);
  const active = item.state === 'queued' || item.state === 'sending';
  const renamed = item.storedAs !== undefined && item.storedAs !== item.name.split('/').pop();
  return (
    <div data-upload={item.name}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{item.name}</Text>
        <Group gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed" data-upload-state style={{ whiteSpace: 'nowrap' }}>
            {STATE_TEXT[item.state]} {formatSize(item.sent)} of {formatSize(item.size)}
          </Text>
          {active && <CloseButton size="sm" aria-label={`Cancel upload of ${item.name}`} onClick={onCancel} />}
        </Group>
      </Group>
      <Progress value={percent} aria-label={`Upload of ${item.name}`} color={item.state === 'failed' ? 'red' : item.state === 'done' ? 'teal' : undefined} />
      {item.state === 'done' && (
        <Text size="xs" data-upload-stored style={{ overflowWrap: 'anywhere' }}>
          Saved as {item.storedAs}{renamed ? ' (a file of that name was already there)' : ''}.
        </Text>
      )}
      {item.error !== undefined && <Text size="xs" c="var(--mantine-color-error)" role="alert">{item.error}</Text>}
    </div>
  );
}
