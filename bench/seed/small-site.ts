import type { BenchStore } from '../stores.js';
import { finishSeeding, seedSite, type SeededSite } from './seed-site.js';
import { QUICK_SITE } from './site-shape.js';

/**
 * The small site the sections with a server of their own run on (WebDAV, transfers, the console):
 * the quick site's shape with no filler grants, and a folder of each of `folderSizes` entries.
 */
export async function seedSmallSite(store: BenchStore, folderSizes: readonly number[] = []): Promise<SeededSite> {
  const writer = await store.openWriter();
  try {
    return await seedSite(writer, { ...QUICK_SITE, grants: 0 }, folderSizes);
  } finally {
    await finishSeeding(writer);
    await writer.close();
  }
}
