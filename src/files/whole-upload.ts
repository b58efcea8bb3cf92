import type { Readable } from 'node:stream';
import type { SitePath } from '../access/index.js';
import type { Capability } from '../authz/index.js';
import type { Entry } from '../repositories/entries.js';
import { planCreation } from './creation-plan.js';
import { commitFile } from './file-commit.js';
import { discardBlobs } from './file-deps.js';
import { assertClientTime } from './modified-time.js';
import { assertChangeablePath, type SessionScope } from './session-scope.js';
import { assertDeclaredLength, storeBody } from './stored-content.js';

/**
 * A whole file in one streamed write (REST: PUT /files/<path> with the raw body, `curl -T`). The
 * caller's right is decided before a byte is read, and again when the file is made visible.
 * `providedMtime` is the modification time its client gives the new contents (WebDAV's PUT
 * headers), checked before a byte is read; without one the new contents have none.
 */
export async function writeWholeFile(
  scope: SessionScope,
  site: SitePath,
  body: Readable | undefined,
  options: { mkdirParents: boolean; declaredLength: number | undefined; providedMtime?: number | undefined },
): Promise<{ entry: Entry; replaced: boolean; capabilities: Capability[] }> {
  const { db, clock, storage, maxUploadBytes } = scope.deps;
  assertChangeablePath(scope, site);
  if (options.providedMtime !== undefined) assertClientTime(options.providedMtime, 'provided_mtime');
  await planCreation(db, scope, site, { type: 'file', mkdirParents: options.mkdirParents });
  assertDeclaredLength(options.declaredLength, maxUploadBytes, maxUploadBytes);
  const content = await storeBody(storage, body, { maxBytes: maxUploadBytes, limitForMessage: maxUploadBytes });
  try {
    const { entry, replaced, releasedStorageKeys, capabilities } = await commitFile(db, scope, site, content, {
      mkdirParents: options.mkdirParents, now: clock.now(), providedMtime: options.providedMtime ?? null,
    });
    await discardBlobs(scope.deps, releasedStorageKeys);
    return { entry, replaced, capabilities };
  } catch (error) {
    await discardBlobs(scope.deps, [content.storageKey]);
    throw error;
  }
}
