import { useEffect, useState } from 'react';
import { LinkError, listEntries, type Link } from './api';

export type UploadFolders = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; folders: string[] };

/**
 * Where the link's uploads may go. An upload names a file inside one of the link's folders
 * (`<folder>/<name>`), never at its top: inside a folder being looked at, there; at the top (and
 * always on an upload-only link, which shows no folder), the shared folders at the link's top.
 */
export function useUploadFolders(link: Link, path: string): UploadFolders {
  const inFolder = link.can.list && path !== '';
  const [state, setState] = useState<UploadFolders>(inFolder ? { kind: 'ready', folders: [path] } : { kind: 'loading' });

  useEffect(() => {
    if (inFolder) {
      setState({ kind: 'ready', folders: [path] });
      return;
    }
    const controller = new AbortController();
    setState({ kind: 'loading' });
    listEntries(link.code, '', controller.signal)
      .then((entries) => setState({ kind: 'ready', folders: entries.filter((e) => e.type === 'directory').map((e) => e.path) }))
      .catch((caught: unknown) => {
        if (controller.signal.aborted) return;
        setState({ kind: 'failed', message: caught instanceof LinkError ? caught.message : 'The link\'s folders could not be read.' });
      });
    return () => controller.abort();
  }, [link.code, inFolder, path]);

  return state;
}
