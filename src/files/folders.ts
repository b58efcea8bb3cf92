import { errors } from '../errors/catalogue.js';
import { findEntry, insertDirectory, type Entry } from '../repositories/entries.js';
import type { SitePath } from '../access/index.js';
import { createMissingParents, planCreation } from './creation-plan.js';
import { assertClientTime } from './modified-time.js';
import { foldersCreated, recordFileEvents } from './file-history.js';
import type { VisibleEntry } from './folder-listing.js';
import { assertChangeablePath, type SessionScope } from './session-scope.js';

/**
 * POST /folders/<path> (contract 6): `write` on the parent, `mkdir_parents` for missing parents,
 * `processing-failure/destination-exists` when the path is taken (also when another request takes
 * it at the same moment: the unique path key decides). Recorded in History with every folder
 * made on the way, in the transaction that makes them. The caller's user is kept as its creator,
 * and `providedMtime` (checked: modified-time.ts) as the modification time its client gave.
 */
export async function createFolder(scope: SessionScope, site: SitePath, options: { mkdirParents: boolean; providedMtime?: number }): Promise<VisibleEntry> {
  const { mkdirParents } = options;
  const userId = scope.caller.user?.id ?? null;
  if (options.providedMtime !== undefined) assertClientTime(options.providedMtime, 'provided_mtime');
  const { db, clock } = scope.deps;
  assertChangeablePath(scope, site);
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const plan = await planCreation(tx, scope, site, { type: 'directory', mkdirParents });
    const parents = await createMissingParents(tx, plan, now, userId);
    if (!(await insertDirectory(tx, plan.path, now, { userId, providedMtime: options.providedMtime ?? null }))) throw errors.destinationExists();
    const created = (await findEntry(tx, plan.key)) as Entry;
    await recordFileEvents(tx, scope, now, foldersCreated([...parents, created.path]));
    return { entry: created, capabilities: [...plan.access.capabilities(created.pathKey, 'directory')] };
  });
}
