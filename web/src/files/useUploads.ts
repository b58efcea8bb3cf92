import { useCallback, useRef, useState } from 'react';
import { joinPath } from '../api/files';
import { uploadFile } from '../api/uploads';

export interface Upload {
  id: number;
  name: string;
  size: number;
  sent: number;
  state: 'queued' | 'sending' | 'done' | 'cancelled' | 'failed';
  error?: string;
}

/**
 * The uploads started in this tab. Files go one after another (each in parts), so a batch of large
 * files never competes for the connection or for memory; each can be cancelled on its own.
 */
export function useUploads(onFinished: () => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());
  const queue = useRef<Promise<void>>(Promise.resolve());
  const nextId = useRef(1);

  const update = useCallback((id: number, change: Partial<Upload>) => {
    setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...change } : u)));
  }, []);

  const start = useCallback((folder: string, files: File[]) => {
    for (const file of files) {
      const id = nextId.current++;
      const controller = new AbortController();
      controllers.current.set(id, controller);
      setUploads((all) => [...all, { id, name: file.name, size: file.size, sent: 0, state: 'queued' }]);
      queue.current = queue.current.then(async () => {
        if (controller.signal.aborted) return;
        update(id, { state: 'sending' });
        try {
          await uploadFile(joinPath(folder, file.name), file, (sent) => update(id, { sent }), controller.signal);
          update(id, { state: 'done', sent: file.size });
          onFinished();
        } catch (caught) {
          if (controller.signal.aborted) update(id, { state: 'cancelled' });
          else update(id, { state: 'failed', error: caught instanceof Error ? caught.message : 'The upload failed.' });
        } finally {
          controllers.current.delete(id);
        }
      });
    }
  }, [onFinished, update]);

  const cancel = useCallback((id: number) => {
    controllers.current.get(id)?.abort();
    update(id, { state: 'cancelled' });
  }, [update]);

  const clearFinished = useCallback(() => setUploads((all) => all.filter((u) => u.state === 'queued' || u.state === 'sending')), []);

  return { uploads, start, cancel, clearFinished };
}
