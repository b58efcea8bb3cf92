import { Alert, Anchor, Box, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { formatSize } from '../files/format';
import { fileUrl, readTextStart, TEXT_PREVIEW_BYTES, type Link, type LinkEntry } from './api';

type Kind = 'image' | 'pdf' | 'audio' | 'video' | 'text';

/** How a file the server calls previewable is shown: by its type, and as text when nothing else fits. */
function kindOf(entry: LinkEntry): Kind {
  const type = entry.mime_type ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return 'text';
}

/**
 * A file of the link shown in a dialog (the whole screen on a phone), from its inline address: the
 * browser draws images, PDFs, sound and video itself, and text is read (its first MiB) and shown
 * as text, never as markup.
 */
export function LinkPreview({ link, entry, onClose }: { link: Link; entry: LinkEntry | undefined; onClose(): void }) {
  const narrow = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={entry !== undefined} onClose={onClose} size="xl" fullScreen={narrow === true} title={entry?.name ?? ''}
      styles={{ title: { overflowWrap: 'anywhere', fontWeight: 600 } }}>
      {entry !== undefined && (
        <Stack gap="sm">
          <PreviewBody link={link} entry={entry} />
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">{formatSize(entry.size)}</Text>
            {link.can.download && (
              <Button component="a" href={fileUrl(link.code, entry.path, 'attachment')} download variant="default" size="xs">Download</Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function PreviewBody({ link, entry }: { link: Link; entry: LinkEntry }) {
  const url = fileUrl(link.code, entry.path, 'inline');
  switch (kindOf(entry)) {
    case 'image':
      return <Center><img src={url} alt={entry.name} style={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }} /></Center>;
    case 'pdf':
      return (
        <Stack gap="xs">
          <iframe src={url} title={`${entry.name} (PDF)`} style={{ width: '100%', height: '70vh', border: 0 }} />
          <Text size="sm">If the document does not appear, <Anchor href={url} target="_blank" rel="noopener noreferrer">open it in a new tab</Anchor>.</Text>
        </Stack>
      );
    case 'audio':
      return <audio src={url} controls style={{ width: '100%' }} aria-label={entry.name} />;
    case 'video':
      return <video src={url} controls style={{ width: '100%', maxHeight: '70vh' }} aria-label={entry.name} />;
    case 'text':
      return <TextPreview link={link} entry={entry} />;
  }
}

type TextState = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'shown'; text: string; cut: boolean };

function TextPreview({ link, entry }: { link: Link; entry: LinkEntry }) {
  const [state, setState] = useState<TextState>({ kind: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    readTextStart(link.code, entry.path, controller.signal)
      .then(({ text, cut }) => setState({ kind: 'shown', text, cut }))
      .catch((caught: unknown) => {
        if (!controller.signal.aborted) setState({ kind: 'failed', message: caught instanceof Error ? caught.message : 'The file could not be read.' });
      });
    return () => controller.abort();
  }, [link.code, entry.path]);

  if (state.kind === 'loading') return <Center py="md"><Loader size="sm" aria-label="Loading the file" /></Center>;
  if (state.kind === 'failed') return <Alert color="red" role="alert" title="The file could not be shown">{state.message}</Alert>;
  return (
    <Stack gap="xs">
      <Box component="pre" data-testid="text-preview" tabIndex={0} aria-label={`Contents of ${entry.name}`} m={0} p="sm"
        style={{ maxHeight: '70vh', overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 'var(--mantine-font-size-sm)',
          background: 'var(--mantine-color-default-hover)', borderRadius: 'var(--mantine-radius-sm)' }}>
        {state.text}
      </Box>
      {state.cut && <Text size="sm" c="dimmed">Only the first {formatSize(TEXT_PREVIEW_BYTES)} is shown.</Text>}
    </Stack>
  );
}
