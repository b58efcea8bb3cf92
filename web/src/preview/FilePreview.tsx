import { Alert, Anchor, Box, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState, type ReactNode } from 'react';
import { formatSize } from '../files/format';
import type { PreviewKind } from './preview-kind';
import { TEXT_PREVIEW_BYTES, type TextStart } from './text-start';

/** What a preview shows: a file's name and size, and how and from where it is drawn. */
export interface PreviewedFile {
  name: string;
  size: number | null;
  view: PreviewView | undefined;
}

/** How a file is shown; undefined when it is not (it is only downloaded). */
export interface PreviewView {
  kind: PreviewKind;
  /** The address the browser draws a picture, PDF, sound or film from (served inline, sandboxed). */
  inlineUrl: string;
  /** The start of a text file. */
  readText(signal: AbortSignal): Promise<TextStart>;
}

/**
 * A file shown in a dialog (the whole screen on a phone), for the console and a share link's page
 * alike: the browser draws pictures, PDFs (its own viewer, in a frame), sound and video (which it
 * streams by ranges) from an inline address; text is read (its first MiB) and shown as text with
 * line numbers, never as markup. `actions` (Download, Copy link) sit beside the size.
 */
export function FilePreview({ file, opened, onClose, actions, children }: {
  file: PreviewedFile | undefined;
  /** Open while the file is being found, before `file` is known. */
  opened: boolean;
  onClose(): void;
  actions?: ReactNode;
  /** Shown instead of the file (it is being found, or cannot be shown). */
  children?: ReactNode;
}) {
  const narrow = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={onClose} size="xl" fullScreen={narrow === true} title={file?.name ?? 'Preview'}
      styles={{ title: { overflowWrap: 'anywhere', fontWeight: 600 } }}>
      <Stack gap="sm">
        {children ?? (file?.view !== undefined && <PreviewBody name={file.name} view={file.view} />)}
        {file !== undefined && (
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">{formatSize(file.size)}</Text>
            <Group gap="xs">{actions}</Group>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}

function PreviewBody({ name, view }: { name: string; view: PreviewView }) {
  const url = view.inlineUrl;
  switch (view.kind) {
    case 'image':
      return <Center><img src={url} alt={name} style={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }} /></Center>;
    case 'pdf':
      return (
        <Stack gap="xs">
          <iframe src={url} title={`${name} (PDF)`} style={{ width: '100%', height: '70vh', border: 0 }} />
          <Text size="sm">If the document does not appear, <Anchor href={url} target="_blank" rel="noopener noreferrer">open it in a new tab</Anchor>.</Text>
        </Stack>
      );
    case 'audio':
      return <audio src={url} controls style={{ width: '100%' }} aria-label={name} />;
    case 'video':
      return <video src={url} controls style={{ width: '100%', maxHeight: '70vh' }} aria-label={name} />;
    case 'text':
      return <TextPreview name={name} readText={view.readText} />;
  }
}

type TextState = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'shown'; text: string; cut: boolean };

function TextPreview({ name, readText }: { name: string; readText: PreviewView['readText'] }) {
  const [state, setState] = useState<TextState>({ kind: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    readText(controller.signal)
      .then(({ text, cut }) => setState({ kind: 'shown', text, cut }))
      .catch((caught: unknown) => {
        if (!controller.signal.aborted) setState({ kind: 'failed', message: caught instanceof Error ? caught.message : 'The file could not be read.' });
      });
    return () => controller.abort();
  }, [readText]);

  if (state.kind === 'loading') return <Center py="md"><Loader size="sm" aria-label="Loading the file" /></Center>;
  if (state.kind === 'failed') return <Alert color="red" role="alert" title="The file could not be shown">{state.message}</Alert>;
  const lines = state.text.split('\n');
  // A last line ended by its newline is not one more line.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const numbers = lines.map((_, i) => String(i + 1)).join('\n');
  const pre = { margin: 0, padding: 'var(--mantine-spacing-sm)', fontSize: 'var(--mantine-font-size-sm)', whiteSpace: 'pre' as const };
  return (
    <Stack gap="xs">
      {/* Lines are not wrapped, so each number stays beside its line; a long line scrolls sideways. */}
      <Box data-testid="text-preview" tabIndex={0} aria-label={`Contents of ${name}`} role="region"
        style={{ display: 'flex', maxHeight: '70vh', overflow: 'auto', background: 'var(--mantine-color-default-hover)', borderRadius: 'var(--mantine-radius-sm)' }}>
        <pre aria-hidden="true" data-testid="line-numbers"
          style={{ ...pre, textAlign: 'right', userSelect: 'none', color: 'var(--mantine-color-dimmed)', borderRight: '1px solid var(--mantine-color-default-border)', position: 'sticky', left: 0, background: 'var(--mantine-color-body)' }}>
          {numbers}
        </pre>
        <pre data-testid="text-lines" style={{ ...pre, flex: 1 }}>{state.text}</pre>
      </Box>
      {state.cut && <Text size="sm" c="dimmed">Only the first {formatSize(TEXT_PREVIEW_BYTES)} is shown: download the file for the rest.</Text>}
    </Stack>
  );
}
