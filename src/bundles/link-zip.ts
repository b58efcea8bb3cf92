import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { errors } from '../errors/catalogue.js';
import { DEFAULT_LISTING_SORT, type FileEntry } from '../files/index.js';
import { insertBundleDownload } from '../repositories/bundle-activity.js';
import { shownToVisitor } from './link-files.js';
import type { LinkDeps, LinkVisitor } from './link-visits.js';
import { placeOf, workspacePathOf } from './link-paths.js';

// A folder of a share link, or all it shares, as one ZIP download (docs/sharing.md#visiting-a-link),
// streamed: the entries are found first, through the link's session, then each file is read
// through the session only when the archive reaches it, and its bytes pass straight through
// (stored, not compressed: the visitor's CPU and the server's are both spared, and most large
// files are compressed already). yazl writes ZIP64 records where a size or offset needs them.

/** Entries one ZIP may hold: past it the visitor downloads folder by folder. */
export const MAX_ZIP_ENTRIES = 100_000;
const PAGE = 1000;

interface ZipItem {
  /** The name inside the archive. */
  name: string;
  /** The path in the link's Workspace, for the session. */
  path: string;
  entry: FileEntry;
}

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
      if (entry !== undefined && shownToVisitor(entry)) await collect(visitor, items, top.path, archiveName(top.name), entry);
    }
  } else {
    const path = workspacePathOf(place);
    const entry = await visitor.session.stat(path);
    if (entry.type !== 'directory') throw errors.paramsInvalid({ path: ['names a file: a ZIP is made of a folder; download the file itself'] });
    name = place.below.at(-1) ?? place.top.name;
    await collect(visitor, items, path, '', entry);
  }
  const { bundle } = visitor.found;
  await insertBundleDownload(deps.db, {
    bundleId: bundle.id, workspaceId: bundle.workspaceId, bundleRegistrationId: visitor.visit.bundleRegistrationId, downloadMethod: 'full_zip',
    path: place === undefined ? null : visitor.session.locate(workspacePathOf(place)).path, now: deps.now,
  });
  return { name, stream: archive(visitor, items) };
}

async function statIfReached(visitor: LinkVisitor, path: string): Promise<FileEntry | undefined> {
  try {
    return await visitor.session.stat(path);
  } catch {
    return undefined;
  }
}

/**
 * A file's or folder's name as the archive holds it. A ZIP separates folders by `/` alone, but
 * archivers read a `\` as a separator too, and a leading `C:` as a drive: a file named `..\x`
 * (a name like any other in a Workspace) would be extracted above the folder it is extracted to, and
 * yazl refuses such a name outright. Both are written as `-`, as a submission folder's name writes
 * a `\`.
 */
function archiveName(name: string): string {
  return name.replaceAll('\\', '-').replace(/^([A-Za-z]):/u, '$1-');
}

/** The entry at `path` and, for a folder, everything the session lists below it, named from `prefix`. */
async function collect(visitor: LinkVisitor, items: ZipItem[], path: string, prefix: string, entry: FileEntry): Promise<void> {
  if (prefix !== '') items.push({ name: prefix, path, entry });
  if (entry.type !== 'directory') return;
  let after;
  do {
    const page = await visitor.session.list(path, { sort: DEFAULT_LISTING_SORT, after, limit: PAGE });
    for (const child of page.entries.filter(shownToVisitor)) {
      if (items.length >= MAX_ZIP_ENTRIES) throw errors.paramsInvalid({ path: [`holds more than ${MAX_ZIP_ENTRIES} files and folders: download its folders one by one`] });
      await collect(visitor, items, `${path}/${child.name}`, prefix === '' ? archiveName(child.name) : `${prefix}/${archiveName(child.name)}`, child);
    }
    after = page.next;
  } while (after !== undefined);
}

/** The archive, written as it is read: each file opened through the session when its turn comes. */
function archive(visitor: LinkVisitor, items: readonly ZipItem[]): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // A file that can no longer be read (deleted meanwhile, its reach gone) ends the download
  // broken rather than as an archive that looks whole.
  zip.on('error', (error: Error) => output.destroy(error));
  // A visitor who goes away ends the archive: the file being read is closed, not left open.
  let reading: Readable | undefined;
  output.on('close', () => reading?.destroy());
  for (const item of items) {
    const options = { mtime: new Date(item.entry.modifiedAt), mode: item.entry.type === 'directory' ? 0o40755 : 0o100644 };
    if (item.entry.type === 'directory') {
      zip.addEmptyDirectory(item.name, options);
      continue;
    }
    zip.addReadStreamLazy(item.name, { ...options, compress: false, size: item.entry.size ?? 0 }, (done) => {
      visitor.session.read(item.path).then((opened) => {
        reading = opened.stream;
        done(null, opened.stream);
      }, (error: unknown) => done(error, undefined as never));
    });
  }
  zip.end();
  return output;
}
