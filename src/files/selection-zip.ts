import type { Readable } from 'node:stream';
import { errors } from '../errors/catalogue.js';
import type { FileEntry } from './file-entry.js';
import type { FileSession } from './file-session.js';
import { archiveName, collectZipItems, readableInListing, zipStream, type ZipItem } from './zip-archive.js';

// Several files and folders a caller picked, as one ZIP (docs/files.md#several-files-as-one-zip):
// each is found through the caller's own session, so the archive holds what they may read and
// nothing else, and each file's download is recorded in History as theirs.

/** Paths one request may name; each folder among them brings everything below it. */
export const MAX_SELECTED_PATHS = 1000;

export interface SelectionZip {
  /** The archive's file name, without `.zip`: the folder the selection is in ('files' at the root). */
  name: string;
  stream: Readable;
}

/**
 * The ZIP of `paths`. Each is named in the archive by its path below the deepest folder that
 * holds them all (so names from different folders cannot collide), a folder with its contents;
 * a path inside another selected folder comes with that folder, not twice. A path the caller
 * cannot see is the session's refusal (not-found), a file they may not read is
 * `not-authorized/read-permission-required`, and below a folder only what they may list and read
 * is taken.
 */
export async function zipOfSelection(session: FileSession, paths: readonly string[]): Promise<SelectionZip> {
  if (paths.length === 0) throw errors.paramsRequired({ paths: ['names at least one file or folder'] });
  if (paths.length > MAX_SELECTED_PATHS) throw errors.paramsInvalid({ paths: [`names at most ${MAX_SELECTED_PATHS} files and folders`] });
  const selected = new Map<string, FileEntry>();
  for (const path of paths) {
    const entry = await session.stat(path);
    if (entry.path === '') throw errors.paramsInvalid({ paths: ['names the root: select the files and folders in it'] });
    if (entry.type === 'file' && !entry.capabilities.includes('read')) throw errors.readPermissionRequired();
    selected.set(entry.path, entry);
  }
  const tops = [...selected.values()].filter((entry) => ![...selected.keys()].some((other) => entry.path.startsWith(`${other}/`)));
  const parent = commonFolder(tops.map((entry) => entry.path));
  const items: ZipItem[] = [];
  for (const entry of tops.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const name = (parent === '' ? entry.path : entry.path.slice(parent.length + 1)).split('/').map(archiveName).join('/');
    await collectZipItems(session, items, entry.path, name, entry, readableInListing);
  }
  return { name: parent === '' ? 'files' : parent.slice(parent.lastIndexOf('/') + 1), stream: zipStream(session, items) };
}

/** The deepest folder every path is below ('' for the root). */
function commonFolder(paths: readonly string[]): string {
  const folders = paths.map((path) => path.split('/').slice(0, -1));
  const first = folders[0] ?? [];
  let depth = 0;
  while (depth < first.length && folders.every((segments) => segments[depth] === first[depth])) depth += 1;
  return first.slice(0, depth).join('/');
}
