import type { Readable } from 'node:stream';
import { errors } from '../errors/catalogue.js';
import { archiveName, collectZipItems, type FileEntry, zipStream, type ZipItem } from '../files/index.js';
import { insertBundleDownload } from '../repositories/bundle-activity.js';
import { shownToVisitor } from './link-files.js';
import type { LinkDeps, LinkVisitor } from './link-visits.js';
import { placeOf, workspacePathOf } from './link-paths.js';

// A folder of a share link, or all it shares, as one ZIP download (docs/sharing.md#visiting-a-link),
// streamed through the link's session by the ZIP writer every door shares (files/zip-archive.ts).

export interface LinkZip {
  /** The archive's file name, without `.zip`. */
  name: string;
  stream: Readable;
}

/**
 * The ZIP of the folder at `relative` ('' for everything the link shares). A `preview_only`
 * link's files are not downloaded (`processing-failure/bundle-only-allows-previews`). Recorded
 * as the link's BundleDownload (`full_zip`), with the folder, or none for the whole link.
 */
export async function zipOfLink(deps: LinkDeps, visitor: LinkVisitor, relative: string): Promise<LinkZip> {
  if (visitor.found.bundle.settings.permissions === 'preview_only') throw errors.bundleOnlyAllowsPreviews();
  const place = placeOf(visitor.tops, relative);
  const items: ZipItem[] = [];
  let name: string;
  if (place === undefined) {
    name = 'shared-files';
    for (const top of visitor.tops) {
      const entry = await statIfReached(visitor, top.path);
      if (entry !== undefined && shownToVisitor(entry)) await collectZipItems(visitor.session, items, top.path, archiveName(top.name), entry, shownToVisitor);
    }
  } else {
    const path = workspacePathOf(place);
    const entry = await visitor.session.stat(path);
    if (entry.type !== 'directory') throw errors.paramsInvalid({ path: ['names a file: a ZIP is made of a folder; download the file itself'] });
    name = place.below.at(-1) ?? place.top.name;
    await collectZipItems(visitor.session, items, path, '', entry, shownToVisitor);
  }
  const { bundle } = visitor.found;
  await insertBundleDownload(deps.db, {
    bundleId: bundle.id, workspaceId: bundle.workspaceId, bundleRegistrationId: visitor.visit.bundleRegistrationId, downloadMethod: 'full_zip',
    path: place === undefined ? null : visitor.session.locate(workspacePathOf(place)).path, now: deps.now,
  });
  return { name, stream: zipStream(visitor.session, items) };
}

async function statIfReached(visitor: LinkVisitor, path: string): Promise<FileEntry | undefined> {
  try {
    return await visitor.session.stat(path);
  } catch {
    return undefined;
  }
}
