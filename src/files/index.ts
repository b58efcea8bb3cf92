// Files: folders and file contents. Listing, reading, writing, moving, copying and deleting, each
// decided by access/. Uploads and signed transfer links too. The only entrance to the feature.

export { downloadLinkFor, openDownload, parseRange, prepareDownload } from './downloads.js';
export { actorDecisionKey, type FileActor, fileActorOf, requestPathOf, sitePathFor } from './file-actor.js';
export { type FileCore } from './file-core.js';
export { deletePath } from './file-deletion.js';
export { visibleEntry } from './file-lookup.js';
export { copyEntry, moveEntry } from './file-moves.js';
export { createFileServices, type FileServices } from './file-services.js';
export { listFolder } from './folder-listing.js';
export { createFolder } from './folders.js';
export { beginUpload, endUpload, MAX_PARTS, offerPart, type PartOffer, receivePart, uploadById, uploadWhole } from './uploads.js';
