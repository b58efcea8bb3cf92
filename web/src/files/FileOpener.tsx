import { Alert, Button, Center, CopyButton, Loader } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { fileDetails, joinPath } from '../api/files';
import { FilePreview, type PreviewedFile, type PreviewView } from '../preview/FilePreview';
import { previewKindOf } from '../preview/preview-kind';
import { readTextStart } from '../preview/text-start';

/** The file being found, or found (shown when `file.view` says how, else only offered for download). */
type Opening = { kind: 'finding' } | { kind: 'failed'; message: string } | { kind: 'found'; file: PreviewedFile; url: string };

/**
 * A file of the folder open, shown in the preview a share link's page uses too, from the same
 * signed download link as a download: asked inline (`?disposition=inline`) for what the browser
 * draws, and the server, which alone decides what is served inline, is asked first (a HEAD, which
 * records nothing); text is read from the link's first MiB. Download and Copy link (the console's
 * address of this preview, which opens it for whoever may read the file) sit beside it.
 */
export function FileOpener({ folder, name, onClose }: { folder: string; name: string; onClose(): void }) {
  const [opening, setOpening] = useState<Opening>({ kind: 'finding' });
  const path = joinPath(folder, name);

  useEffect(() => {
    const controller = new AbortController();
    setOpening({ kind: 'finding' });
    open(path, controller.signal).then(setOpening, (caught: unknown) => {
      if (controller.signal.aborted) return;
      setOpening({ kind: 'failed', message: caught instanceof ApiError && caught.status === 404 ? `There is no file ${name} here (any more).` : caught instanceof Error ? caught.message : 'The file could not be opened.' });
    });
    return () => controller.abort();
  }, [path, name]);

  const file = opening.kind === 'found' ? opening.file : undefined;
  const url = opening.kind === 'found' ? opening.url : undefined;
  return (
    <FilePreview file={file} opened onClose={onClose} actions={url !== undefined && (
      <>
        <CopyButton value={window.location.href}>
          {({ copied, copy }) => <Button variant="default" size="xs" onClick={copy}>{copied ? 'Link copied' : 'Copy link'}</Button>}
        </CopyButton>
        <Button component="a" href={url} download={name} rel="noreferrer" variant="default" size="xs">Download</Button>
      </>
    )}>
      {instead(opening)}
    </FilePreview>
  );
}

/** What the dialog shows instead of the file: while it is found, why it cannot be opened, or that it is only downloaded. */
function instead(opening: Opening): ReactNode {
  if (opening.kind === 'finding') return <Center py="md"><Loader size="sm" aria-label="Opening the file" /></Center>;
  if (opening.kind === 'failed') return <Alert color="red" role="alert" title="This file cannot be opened">{opening.message}</Alert>;
  if (opening.file.view === undefined) return <Alert color="gray" title="No preview for this kind of file">Download it to open it on your device.</Alert>;
  return undefined;
}

async function open(path: string, signal: AbortSignal): Promise<Opening> {
  const details = await fileDetails(path, signal);
  if (details.type === 'directory') return { kind: 'failed', message: 'This is a folder.' };
  const uri = details.download_uri;
  if (uri === undefined) return { kind: 'failed', message: 'You may see this file but not open it (that needs read permission).' };
  const name = details.display_name;
  const kind = previewKindOf(name, details.mime_type);
  const found = (view: PreviewView | undefined): Opening => ({ kind: 'found', file: { name, size: details.size, view }, url: uri });
  const readText = (s: AbortSignal) => readTextStart(uri, s, (status) => new Error(`The server answered ${status}.`));
  if (kind === 'text') return found({ kind, inlineUrl: uri, readText });
  if (kind === undefined) return found(undefined);
  const inlineUrl = `${uri}${uri.includes('?') ? '&' : '?'}disposition=inline`;
  const head = await fetch(inlineUrl, { method: 'HEAD', signal });
  const served = head.ok && (head.headers.get('Content-Disposition') ?? '').startsWith('inline');
  return found(served ? { kind, inlineUrl, readText } : undefined);
}
