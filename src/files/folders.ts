import { errors } from '../errors/catalogue.js';
import { findEntry, insertDirectory, type Entry } from '../repositories/entries.js';
import type { SitePath } from '../access/index.js';
import { createMissingParents, planCreation } from './creation-plan.js';
import { foldersCreated, recordFileEvents } from './file-history.js';
import type { VisibleEntry } from './folder-listing.js';
import { assertChangeablePath, type SessionScope } from './session-scope.js';

/**
 * POST /folders/<path> (contract 6): `write` on the parent, `mkdir_parents` for missing parents,
 * `processing-failure/destination-exists` when the path is taken (also when another request takes
 * it at the same moment: the unique path key decides). Recorded in History with every folder
 * made on the way, in the transaction that makes them.
 */
export async function createFolder(scope: SessionScope, site: SitePath, mkdirParents: boolean): Promise<VisibleEntry> {
  const { db, clock } = scope.deps;
  assertChangeablePath(scope, site);
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const plan = await planCreation(tx, scope, site, { type: 'directory', mkdirParents });
    const parents = await createMissingParents(tx, plan, now);
    if (!(await insertDirectory(tx, plan.path, now))) throw errors.destinationExists();
    const created = (await findEntry(tx, plan.key)) as Entry;
    await recordFileEvents(tx, scope, now, foldersCreated([...parents, created.path]));
    return { entry: created, capabilities: [...plan.access.capabilities(created.pathKey, 'directory')] };
  });
}
