import type { Db } from '../db/database.js';
import { activity } from '../lib/activity.js';
import { insertFile, lockEntryAt, replaceFileContent, type Entry, type FileContent } from '../repositories/entries.js';
import { queueFileDigests } from './file-digests.js';
import { keepReplacedContent } from './file-versions.js';
import type { SitePath } from '../access/index.js';
import type { Capability } from '../authz/index.js';
import { createMissingParents, planCreation } from './creation-plan.js';
import { fileWritten, foldersCreated, recordFileEvents } from './file-history.js';
import type { SessionScope } from './session-scope.js';

const ATTEMPTS = 3;

export interface CommittedFile {
  entry: Entry;
  /** Whether a file stood there before (its content is now a version, if the site keeps any). */
  replaced: boolean;
  /**
   * Blobs now unreferenced: the replaced content when no version is kept, or the oldest versions
   * past the site's count. The caller deletes them after the commit.
   */
  releasedStorageKeys: string[];
  /** The caller's capabilities on the file, as the transaction decided them. */
  capabilities: Capability[];
}

/**
 * Makes stored contents visible as the file at `site`, atomically: the entry is inserted, or an
 * existing file is pointed at the new blob, in one transaction that first decides again whether
 * the caller may (permissions can change while bytes travel). `inTransaction` runs in the same
 * transaction (ending an upload removes the upload there), so both happen or neither does; so
 * does the History record of the file (`create`, or `update` for a replacement) and of any folder
 * made for it, written last.
 *
 * Another request may create or replace the same file between the plan and the write; the write
 * notices (a unique key, a compare-and-swap on the blob key) and the whole decision is made again.
 *
 * A replaced file's content becomes its newest version (file-versions.ts), by reference to its blob.
 *
 * The caller's user is kept as the file's author (its creator, or who last replaced it), and
 * `providedMtime` as the modification time its client gave (none unless given: it belongs to
 * the contents, so new contents without one have none).
 */
export async function commitFile(
  db: Db,
  scope: SessionScope,
  site: SitePath,
  content: FileContent,
  options: { mkdirParents: boolean; now: number; providedMtime?: number | null; inTransaction?: (tx: Db) => Promise<void> },
): Promise<CommittedFile> {
  const authorship = { userId: scope.caller.user?.id ?? null, providedMtime: options.providedMtime ?? null };
  const { versionsKept } = await scope.deps.keeping();
  for (let attempt = 1; ; attempt += 1) {
    try {
      const committed = await db.transaction().execute(async (tx) => {
        await options.inTransaction?.(tx);
        // Replacing writers of the same file queue here, so each plans on the file as the one
        // before it left it; without the lock, a busy file made them lose the race repeatedly.
        await lockEntryAt(tx, site.key);
        const plan = await planCreation(tx, scope, site, { type: 'file', mkdirParents: options.mkdirParents });
        const parents = await createMissingParents(tx, plan, options.now, authorship.userId);
        const previous = plan.existing?.storageKey ?? undefined;
        const entry = plan.existing === undefined
          ? await insertFile(tx, plan.path, content, options.now, authorship)
          : await replaceFileContent(tx, plan.existing.id, previous as string, content, options.now, authorship);
        if (entry === undefined) throw new RaceLost();
        // A large upload arrives with its SHA-256 alone; the rest follow (file-digests.ts).
        if (content.md5 === null) await queueFileDigests(tx, content.storageKey, options.now);
        const released = plan.existing === undefined ? [] : await keepReplacedContent(tx, plan.existing, entry.id, { at: options.now, byId: authorship.userId }, versionsKept);
        await recordFileEvents(tx, scope, options.now, [...foldersCreated(parents), fileWritten(entry, previous !== undefined)]);
        return { entry, replaced: previous !== undefined, releasedStorageKeys: released, capabilities: [...plan.access.capabilities(entry.pathKey, 'file')] };
      });
      activity.emit('bytes-uploaded', content.size);
      return committed;
    } catch (error) {
      // Thrown inside the transaction so that it rolls back whole, upload removal included.
      if (!(error instanceof RaceLost) || attempt >= ATTEMPTS) throw error;
    }
  }
}

class RaceLost extends Error {
  constructor() {
    super('the file changed while it was being written; try again');
    this.name = 'RaceLost';
  }
}
