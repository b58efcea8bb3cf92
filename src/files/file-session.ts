import type { Readable } from 'node:stream';
import type { SitePath } from '../access/index.js';
import type { Capability } from '../authz/index.js';
import type { Entry } from '../repositories/entries.js';
import type { ChildPosition } from '../repositories/entry-listing.js';
import type { RangeRequest } from './byte-range.js';
import { downloadLinkFor, readableFile, readFile, type OpenedBytes, type ReadOptions, type TransferLink } from './downloads.js';
import { fileEntryOf, type FileEntry } from './file-entry.js';
import { deletePath } from './file-deletion.js';
import { fileOfVersion, listVersions, restoreVersion, type VersionEntry } from './file-versions.js';
import { listTrash, purgeTrashed, restoreTrashed, showTrashed, type TrashEntry, type TrashTreeItem } from './trash.js';
import { visibleEntry } from './file-lookup.js';
import { copyEntry, moveEntry, type TransferOptions } from './file-moves.js';
import { changeDeadProperties, readDeadProperties, readDeadPropertiesInFolder, type PropertyChange, type PropertyChangeOutcome } from './dead-properties.js';
import type { DeadProperty } from '../repositories/dav-properties.js';
import { listFolder, type ListingPageRequest } from './folder-listing.js';
import { createFolder } from './folders.js';
import { searchSubtree, type SubtreePosition, type SubtreeSearchRequest } from './subtree-search.js';
import { decisionKeyOf, shownPathIn, sitePathIn, type SessionScope } from './session-scope.js';
import { FileReader } from './file-reader.js';
import { setModifiedTime, setProvidedModifiedTime } from './modified-time.js';
import { locksAround, locksCovering, type LocksAround } from './lock-store.js';
import { ResourceLocks } from './resource-locks.js';
import { StagedUpload, type StagedUploadOptions } from './staged-upload.js';
import { uploadOffersOf, type UploadOffer } from './upload-offer.js';
import type { UploadDeclarations } from './upload-declarations.js';
import { beginUpload, endUpload, offerParts, type UploadBeginning } from './uploads.js';
import { writeWholeFile } from './whole-upload.js';

export interface ListingPage {
  entries: FileEntry[];
  /** Where the next page starts, when there is one. */
  next: ChildPosition | undefined;
}

export interface SubtreeSearchPage {
  entries: FileEntry[];
  /** Where the next page starts, when the search has more to look through. */
  next: SubtreePosition | undefined;
}

/**
 * One caller's file operations in one Workspace, whichever front door it came through (opened by
 * FileOperations.session, past the credential gate). Paths are strings as the client wrote them in
 * the request Workspace; every answer shows paths as that Workspace sees them, with the caller's
 * capabilities. Each operation decides, from current data, whether the caller may; a refusal is
 * an AtriumError, which each front door renders in its own protocol.
 */
export class FileSession {
  /** Write locks, WebDAV's and the REST API's, as this caller sees them (resource-locks.ts). */
  readonly locks: ResourceLocks;

  constructor(private readonly scope: SessionScope) {
    this.locks = new ResourceLocks(scope);
  }

  /**
   * Everything the session's answers depend on besides the data: two sessions with the same key
   * get the same answers from the same data, so a front door may cache answers under it.
   */
  get decisionKey(): string {
    return decisionKeyOf(this.scope);
  }

  /** An entry as answered, with whether a lock covers it (one indexed query). */
  private async entryOf(entry: Entry, capabilities: Iterable<Capability>): Promise<FileEntry> {
    const locked = await locksCovering(this.scope.deps.db, entry.pathKey, this.scope.deps.clock.now());
    return fileEntryOf(this.scope, entry, capabilities, locked.length > 0);
  }

  /** The site path a client's path names in the request Workspace (`bad-request/invalid-path` if none). */
  locate(path: string): SitePath {
    return sitePathIn(this.scope, path);
  }

  /**
   * A site path (a lock's root, say) as this session shows paths: relative to the caller's frame,
   * null when it lies above or beside it.
   */
  shownPath(sitePath: string): string | null {
    return shownPathIn(this.scope, sitePath);
  }

  /**
   * The locks on a folder, above it and below it, for listing it (is_locked): read once, and
   * stamped so that a cached page can be keyed by them (lock-store.ts).
   */
  locksAround(path: string): Promise<LocksAround> {
    return locksAround(this.scope.deps.db, this.locate(path).key, this.scope.deps.clock.now());
  }

  /**
   * A folder's entries, a page at a time, folders first, in the page's sort (a visible file lists
   * as itself); `locks`, from locksAround(path), when the caller has read them already.
   */
  async list(path: string, page: ListingPageRequest, locks?: LocksAround): Promise<ListingPage> {
    const [listed, around] = await Promise.all([listFolder(this.scope, this.locate(path), page), locks ?? this.locksAround(path)]);
    return { entries: listed.entries.map(({ entry, capabilities }) => fileEntryOf(this.scope, entry, capabilities, around.locked(entry.pathKey))), next: listed.next };
  }

  /**
   * The entries at any depth below a folder that meet the match and that listing folder after
   * folder would show the caller, a page at a time (subtree-search.ts).
   */
  async search(path: string, request: SubtreeSearchRequest, locks?: LocksAround): Promise<SubtreeSearchPage> {
    const [found, around] = await Promise.all([searchSubtree(this.scope, this.locate(path), request), locks ?? this.locksAround(path)]);
    return { entries: found.entries.map(({ entry, capabilities }) => fileEntryOf(this.scope, entry, capabilities, around.locked(entry.pathKey))), next: found.next };
  }

  async stat(path: string): Promise<FileEntry> {
    const { entry, access } = await visibleEntry(this.scope, this.locate(path));
    return this.entryOf(entry, access.capabilities(entry.pathKey, entry.type));
  }

  /** stat, with a download link when the entry is a file the caller may read. */
  async statWithDownloadLink(path: string): Promise<{ entry: FileEntry; downloadLink: TransferLink | undefined }> {
    const { entry, access } = await visibleEntry(this.scope, this.locate(path));
    const capabilities = access.capabilities(entry.pathKey, entry.type);
    const downloadLink = entry.type === 'file' && capabilities.has('read') ? await downloadLinkFor(this.scope, entry) : undefined;
    return { entry: await this.entryOf(entry, capabilities), downloadLink };
  }

  /** A signed link to a file's bytes (FileOperations.openDownload), for a file the caller may read. */
  async downloadLink(path: string): Promise<{ entry: FileEntry; link: TransferLink }> {
    const { entry, capabilities } = await readableFile(this.scope, this.locate(path));
    return { entry: await this.entryOf(entry, capabilities), link: await downloadLinkFor(this.scope, entry) };
  }

  /** A file's bytes, or the part of them asked for, for a file the caller may read; a download is recorded in History (downloads.ts). */
  async read(path: string, range?: RangeRequest, options: ReadOptions = {}): Promise<{ entry: FileEntry } & OpenedBytes> {
    const { entry, capabilities, stream, range: served } = await readFile(this.scope, this.locate(path), range, options);
    return { entry: await this.entryOf(entry, capabilities), stream, range: served };
  }

  /**
   * A whole file from a stream, created or replacing one; missing folders too with `mkdirParents`;
   * `providedMtime` is the modification time its client gives it (ms), if any.
   */
  async write(path: string, body: Readable | undefined, options: { mkdirParents: boolean; declaredLength?: number; providedMtime?: number }): Promise<{ entry: FileEntry; replaced: boolean }> {
    const { entry, replaced, capabilities } = await writeWholeFile(this.scope, this.locate(path), body, {
      mkdirParents: options.mkdirParents, declaredLength: options.declaredLength, providedMtime: options.providedMtime,
    });
    return { entry: await this.entryOf(entry, capabilities), replaced };
  }

  /** A new folder; `providedMtime` is the modification time its client gives it (ms), if any. */
  async createFolder(path: string, options: { mkdirParents: boolean; providedMtime?: number }): Promise<FileEntry> {
    const { entry, capabilities } = await createFolder(this.scope, this.locate(path), options);
    return await this.entryOf(entry, capabilities);
  }

  /** Moves an entry; with `overwrite` (WebDAV) what stands at the destination is replaced in the same transaction. */
  async move(from: string, to: string, options: TransferOptions = {}): Promise<void> {
    await moveEntry(this.scope, this.locate(from), this.locate(to), options);
  }

  async copy(from: string, to: string, options: TransferOptions = {}): Promise<void> {
    await copyEntry(this.scope, this.locate(from), this.locate(to), options);
  }

  /**
   * The dead properties (WebDAV) of entries this session answered (by stat or list), by path as
   * given; entries without any are absent from the map.
   */
  async deadProperties(paths: readonly string[]): Promise<Map<string, DeadProperty[]>> {
    const sites = paths.map((path) => ({ path, site: this.locate(path) }));
    const byKey = await readDeadProperties(this.scope, sites.map(({ site }) => site));
    const byPath = new Map<string, DeadProperty[]>();
    for (const { path, site } of sites) {
      const found = byKey.get(site.key);
      if (found !== undefined) byPath.set(path, found);
    }
    return byPath;
  }

  /**
   * deadProperties of a folder and its members (as `list` answered them), by path as given, read
   * in one query whatever the folder's size; paths are located only when some property was found.
   */
  async deadPropertiesInFolder(folder: string, paths: readonly string[]): Promise<Map<string, DeadProperty[]>> {
    const byKey = await readDeadPropertiesInFolder(this.scope, this.locate(folder));
    const byPath = new Map<string, DeadProperty[]>();
    if (byKey.size === 0) return byPath;
    for (const path of paths) {
      const found = byKey.get(this.locate(path).key);
      if (found !== undefined) byPath.set(path, found);
    }
    return byPath;
  }

  /**
   * Sets and removes dead properties of an entry, all or none; needs `write` on it, and the result
   * within the caps (dead-property-limits.ts). `providedMtime`, the modification time its client
   * gives it (ms), is kept with them as its `provided_mtime`.
   */
  changeDeadProperties(path: string, changes: readonly PropertyChange[], options: { providedMtime?: number | undefined } = {}): Promise<PropertyChangeOutcome> {
    return changeDeadProperties(this.scope, this.locate(path), changes, options);
  }

  /** Deletes an entry: it goes to the trash, restorable for the site's retention (file-deletion.ts). */
  async delete(path: string, options: { recursive: boolean }): Promise<void> {
    await deletePath(this.scope, this.locate(path), options.recursive);
  }

  /**
   * The deletions the caller could make now, newest first, a page at a time (trash.ts); `within`
   * keeps those of a path and what was inside it.
   */
  async listTrash(request: { within?: string | undefined; beforeId: number | undefined; limit: number }): Promise<{ entries: TrashEntry[]; next: number | undefined }> {
    const within = request.within === undefined || request.within.replace(/^\/+|\/+$/g, '') === '' ? undefined : this.locate(request.within);
    return listTrash(this.scope, { within, beforeId: request.beforeId, limit: request.limit });
  }

  /** One deletion in the trash, with its tree (the first `treeLimit` entries). */
  showTrashed(id: number, treeLimit: number): Promise<{ entry: TrashEntry; tree: TrashTreeItem[]; treeComplete: boolean }> {
    return showTrashed(this.scope, id, treeLimit);
  }

  /** Puts a deletion back where it was, or beside it under a free name: the entry as restored, and whether it was renamed. */
  async restoreTrashed(id: number): Promise<{ entry: FileEntry; renamed: boolean }> {
    const { entry, capabilities, renamed } = await restoreTrashed(this.scope, id);
    return { entry: await this.entryOf(entry, capabilities), renamed };
  }

  /** Removes a deletion from the trash for good, now. */
  purgeTrashed(id: number): Promise<void> {
    return purgeTrashed(this.scope, id);
  }

  /** A file's earlier contents, newest first (file-versions.ts), and the file as it is. */
  async versions(path: string): Promise<{ file: FileEntry; versions: VersionEntry[] }> {
    const { file, capabilities, versions } = await listVersions(this.scope, this.locate(path));
    return { file: await this.entryOf(file, capabilities), versions };
  }

  /** Makes an earlier content (a version, by its id) its file's content again; the content it had becomes a version. */
  async restoreVersion(versionId: number): Promise<FileEntry> {
    const { entry, capabilities } = await restoreVersion(this.scope, await fileOfVersion(this.scope, versionId), versionId);
    return this.entryOf(entry, capabilities);
  }

  /** Begins a multi-part upload of a file, offering its first `parts` parts (docs/files.md). */
  async beginUpload(path: string, request: UploadBeginning): Promise<UploadOffer[]> {
    return uploadOffersOf(this.scope, await beginUpload(this.scope, this.locate(path), request));
  }

  /**
   * Offers `count` parts, from part `first` on, of the caller's own open upload `ref` of this
   * path; any other ref is `not-found/file-upload-not-found`, never a new upload.
   */
  async offerParts(path: string, ref: string, request: { first: number; count: number; declaredSize: number | undefined }): Promise<UploadOffer[]> {
    return uploadOffersOf(this.scope, await offerParts(this.scope, this.locate(path), ref, request));
  }

  /**
   * Ends the caller's upload `ref`: its parts become the file, with the modification time its
   * client gives (ms), if any, once they agree with the size and part tags it declares, if it does.
   */
  async endUpload(path: string, ref: string, options: { providedMtime?: number | undefined } & UploadDeclarations = {}): Promise<FileEntry> {
    const { entry, capabilities } = await endUpload(this.scope, this.locate(path), ref, options);
    return await this.entryOf(entry, capabilities);
  }

  /** A readable file opened for reads at offsets (SFTP), its download recorded at its first byte (file-reader.ts). */
  async openReader(path: string): Promise<FileReader> {
    return FileReader.open(this.scope, this.locate(path));
  }

  /** A file to write at offsets, visible only once committed (SFTP's OPEN ... CLOSE; staged-upload.ts). */
  async stageUpload(path: string, options: StagedUploadOptions): Promise<StagedUpload> {
    return StagedUpload.begin(this.scope, this.locate(path), options);
  }

  /** Keeps a client's modification time (ms) for an entry the caller may write (modified-time.ts). */
  async setModifiedTime(path: string, mtime: number): Promise<void> {
    await setModifiedTime(this.scope, this.locate(path), mtime);
  }

  /**
   * Keeps the modification time a REST client gives (ms) as the entry's `provided_mtime`, its
   * server `mtime` unchanged (modified-time.ts); the entry as it is then.
   */
  async setProvidedModifiedTime(path: string, time: number): Promise<FileEntry> {
    const site = this.locate(path);
    await setProvidedModifiedTime(this.scope, site, time);
    return this.stat(path);
  }
}
