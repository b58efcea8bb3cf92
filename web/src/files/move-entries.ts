import { ApiError } from '../api/client';
import { joinPath, moveEntry, type Entry } from '../api/files';

/**
 * Moves entries into `folder` one after another through `POST /file_actions/move`, which checks
 * each as the API does; stops at the first refusal, saying which entry and why in plain words.
 */
export async function moveInto(entries: Pick<Entry, 'path' | 'display_name'>[], folder: string): Promise<{ moved: number; error?: string }> {
  let moved = 0;
  for (const entry of entries) {
    if (folder === entry.path || folder.startsWith(`${entry.path}/`)) {
      return { moved, error: `${entry.display_name} cannot be moved into itself.` };
    }
    try {
      await moveEntry(entry.path, joinPath(folder, entry.display_name));
      moved += 1;
    } catch (caught) {
      return { moved, error: `${entry.display_name} was not moved: ${plainReason(caught)}` };
    }
  }
  return { moved };
}

/** The server's refusal, said for a person where its own sentence is the API's. */
function plainReason(caught: unknown): string {
  if (!(caught instanceof ApiError)) return caught instanceof Error ? caught.message : 'that did not work.';
  switch (caught.type) {
    case 'processing-failure/destination-exists': return 'there is already something with that name in that folder.';
    case 'processing-failure/destination-parent-does-not-exist': return 'that folder does not exist.';
    case 'processing-failure/destination-parent-conflict': return 'a file of that name stands where the folder would be.';
    case 'bad-request/destination-same': return 'it is already there.';
    case 'bad-request/destination-inside-source': return 'a folder cannot go into itself.';
    case 'not-authorized/write-permission-required': return 'you may not add anything to that folder.';
    default: return caught.message;
  }
}
