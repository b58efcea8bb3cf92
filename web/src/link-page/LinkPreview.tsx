import { Button } from '@mantine/core';
import { useMemo } from 'react';
import { FilePreview, type PreviewedFile } from '../preview/FilePreview';
import { previewKindOf } from '../preview/preview-kind';
import { readTextStart } from '../preview/text-start';
import { errorOf, fileUrl, type Link, type LinkEntry } from './api';

/**
 * A file of the link, which the server calls previewable, shown by the preview the console uses
 * too, from the link's inline address (text is what no other viewer fits).
 */
export function LinkPreview({ link, entry, onClose }: { link: Link; entry: LinkEntry | undefined; onClose(): void }) {
  const file = useMemo<PreviewedFile | undefined>(() => {
    if (entry === undefined) return undefined;
    const inlineUrl = fileUrl(link.code, entry.path, 'inline');
    return {
      name: entry.name, size: entry.size,
      view: { kind: previewKindOf(entry.name, entry.mime_type) ?? 'text', inlineUrl, readText: (signal) => readTextStart(inlineUrl, signal, errorOf) },
    };
  }, [link.code, entry]);
  return (
    <FilePreview file={file} opened={entry !== undefined} onClose={onClose} actions={entry !== undefined && link.can.download && (
      <Button component="a" href={fileUrl(link.code, entry.path, 'attachment')} download variant="default" size="xs">Download</Button>
    )} />
  );
}
