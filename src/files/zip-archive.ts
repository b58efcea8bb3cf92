import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { errors } from '../errors/catalogue.js';
import { DEFAULT_LISTING_SORT } from '../repositories/entry-listing.js';
import type { FileEntry } from './file-entry.js';
import type { FileSession } from './file-session.js';

// Files and folders as one ZIP download, for every door that offers one (a share link's folder,
// the REST API's selection): streamed through a file session. The entries are found first, then
// each file is read through the session only when the archive reaches it, and its bytes pass
// straight through (stored, not compressed: the client's CPU and the server's are both spared, and
// most large files are compressed already). yazl writes ZIP64 records where a size or offset
// needs them.

/** Entries one ZIP may hold: past it the client downloads folder by folder. */
export const MAX_ZIP_ENTRIES = 100_000;
const PAGE = 1000;

export interface ZipItem {
  /** The name inside the archive. */
  name: string;
  /** The path in the session's Workspace. */
  path: string;
  entry: FileEntry;
}

/**
 * Whether an archive takes an entry the session listed: a folder its reader may list, a file it
 * may read. A writer is shown the folders it may drop files into; their contents are not its to take.
 */
export function readableInListing(entry: FileEntry): boolean {
  return entry.capabilities.includes(entry.type === 'directory' ? 'list' : 'read');
}

/**
 * Adds the entry at `path` (named `prefix` in the archive; '' adds only what is below it) and, for
 * a folder, everything below it that the session lists and `shown` keeps.
 */
export async function collectZipItems(
  session: FileSession, items: ZipItem[], path: string, prefix: string, entry: FileEntry, shown: (entry: FileEntry) => boolean = readableInListing,
): Promise<void> {
  if (prefix !== '') {
    if (items.length >= MAX_ZIP_ENTRIES) throw tooMany();
    items.push({ name: prefix, path, entry });
  }
  if (entry.type !== 'directory') return;
  let after;
  do {
    const page = await session.list(path, { sort: DEFAULT_LISTING_SORT, after, limit: PAGE });
    for (const child of page.entries.filter(shown)) {
      await collectZipItems(session, items, `${path}/${child.name}`, prefix === '' ? archiveName(child.name) : `${prefix}/${archiveName(child.name)}`, child, shown);
    }
    after = page.next;
  } while (after !== undefined);
}

/**
 * A file's or folder's name as the archive holds it. A ZIP separates folders by `/` alone, but
 * archivers read a `\` as a separator too, and a leading `C:` as a drive: a file named `..\x`
 * (a name like any other in a Workspace) would be extracted above the folder it is extracted to, and
 * yazl refuses such a name outright. Both are written as `-`, as a submission folder's name writes
 * a `\`.
 */
export function archiveName(name: string): string {
  return name.replaceAll('\\', '-').replace(/^([A-Za-z]):/u, '$1-');
}

function tooMany() {
  return errors.paramsInvalid({ path: [`holds more than ${MAX_ZIP_ENTRIES} files and folders: download its folders one by one`] });
}

/** The archive, written as it is read: each file opened through the session when its turn comes. */
export function zipStream(session: FileSession, items: readonly ZipItem[]): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // A file that can no longer be read (deleted meanwhile, its reach gone) ends the download
  // broken rather than as an archive that looks whole.
  zip.on('error', (error: Error) => output.destroy(error));
  // A client that goes away ends the archive: the file being read is closed, not left open.
  let reading: Readable | undefined;
  output.on('close', () => reading?.destroy());
  for (const item of items) {
    const options = { mtime: new Date(item.entry.modifiedAt), mode: item.entry.type === 'directory' ? 0o40755 : 0o100644 };
    if (item.entry.type === 'directory') {
      zip.addEmptyDirectory(item.name, options);
      continue;
    }
    zip.addReadStreamLazy(item.name, { ...options, compress: false, size: item.entry.size ?? 0 }, (done) => {
      session.read(item.path).then((opened) => {
        reading = opened.stream;
        done(null, opened.stream);
      }, (error: unknown) => done(error, undefined as never));
    });
  }
  zip.end();
  return output;
}
