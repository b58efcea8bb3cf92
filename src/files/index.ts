// Files: folders and file contents, for every front door. A caller works through a FileSession
// (list, stat, read, write, create folder, move, copy, delete, the upload protocol, WebDAV's dead
// properties, the locks every door shares, the trash and file versions), each operation decided by access/; signed
// transfer links are answered outside any session. The only entrance to the feature.

export { type RangeRequest } from './byte-range.js';
export { type Disposition, type OpenedDownload, type TransferLink } from './downloads.js';
export { modifiedTimeShown, type FileEntry } from './file-entry.js';
export { createFileOperations, type FileOperations } from './file-operations.js';
export { type FileEventFollowUp, type FileEventWatcher } from './file-deps.js';
export { type FileSession, type ListingPage, type SubtreeSearchPage } from './file-session.js';
export { type PropertyChange, type PropertyChangeOutcome } from './dead-properties.js';
export { type TransferOptions } from './file-moves.js';
export { type DeadProperty } from '../repositories/dav-properties.js';
export { type DavLock } from '../repositories/dav-locks.js';
export { type ResourceLocks, type RestLockRequest, type WriteTarget } from './resource-locks.js';
export { type LockEntry } from './lock-entry.js';
export { type LocksAround } from './lock-store.js';
export { type FileReader } from './file-reader.js';
export { type StagedUpload, type StagedUploadOptions } from './staged-upload.js';
export { type UploadOffer } from './upload-offer.js';
export { type ReceivedPart } from './upload-parts.js';
export { UPLOAD_LIFETIME_MS } from './uploads.js';
export { siteStorageUsage, storedTotals, type SiteUsage } from './storage-usage.js';
export { MAX_PARTS } from './upload-part-range.js';
export { MAX_CHECKED_PER_PAGE, type ListingPageRequest } from './folder-listing.js';
export { EVERY_ENTRY, listingMatchKey, listingMatchOf, narrows, type ListingMatch, type ListingMatchInput } from './listing-match.js';
export { searchCursorKey } from './search-cursor-key.js';
export { MAX_LOOKED_AT_PER_PAGE, type SubtreePosition, type SubtreeSearchRequest } from './subtree-search.js';
export { DEFAULT_LISTING_SORT, type ChildPosition, type ListingSort, type ListingSortField, type SortDirection } from '../repositories/entry-listing.js';
export { type ByteRange } from '../storage/blob-storage.js';
export { partEntityTag, type PartEntityTag } from './upload-declarations.js';
export { isPreviewable } from './previewable-types.js';
export { archiveName, collectZipItems, MAX_ZIP_ENTRIES, readableInListing, zipStream, type ZipItem } from './zip-archive.js';
export { MAX_SELECTED_PATHS, zipOfSelection, type SelectionZip } from './selection-zip.js';
export { type TrashEntry, type TrashTreeItem, MAX_TRASH_CHECKED_PER_PAGE } from './trash.js';
export { type VersionEntry } from './file-versions.js';
export { purgeExpiredTrash, TRASH_PURGE_EVERY_MS, TRASH_PURGE_KIND } from './trash-purge.js';
