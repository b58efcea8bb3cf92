// Share links (Files.com's Bundles, docs/sharing.md): links that hand files and folders of a
// Workspace to whoever holds them, the people they were shared with, and what visitors did
// through them. Who may make and see them is access/bundle-authority.ts. The only entrance to the feature.

export { type Bundle, type BundleFilter, type BundlePath, type BundleSettings, type BundleSortField, bundleSortValue } from '../repositories/bundles.js';
export {
  BUNDLE_ACTIONS, BUNDLE_DOWNLOAD_METHODS, type BundleAction, type BundleActionKind, type BundleDownload, type BundleDownloadMethod, type BundleRecipient,
  type BundleRecipientFilter, type BundleRecordFilter, type BundleRegistration, findBundleRegistrationByCode, insertBundleAction, insertBundleDownload,
  insertBundleRegistration,
} from '../repositories/bundle-activity.js';
export { BUNDLE_PERMISSIONS } from './bundle-fields.js';
export { CODE_MAX_LENGTH, CODE_MIN_LENGTH, randomBundleCode } from './bundle-codes.js';
export { type BundleInput, type BundleView, createBundle, deleteBundle, getBundle, listBundles, updateBundle } from './bundles.js';
export { createBundleRecipient, listBundleRecipients, type RecipientInput, shareBundle, type ShareInput } from './bundle-sharing.js';
export { type BundleRecordsOf, listBundleActions, listBundleDownloads, listBundleRegistrations } from './bundle-records.js';
export { type BundleClosedReason, bundlePasswordMatches, findBundleByCode, type FoundBundle } from './bundle-lookup.js';
export { type LinkFacts, linkFacts } from './link-facts.js';
export { enterLink, type LinkClient, type LinkDeps, linkForVisitor, type LinkVisitor, startVisit, type VisitInput } from './link-visits.js';
export { type Disposition, deleteFromLink, type LinkEntry, linkEntries, type LinkFileBytes, type LinkUpload, readLinkFile, uploadToLink } from './link-files.js';
export { type LinkZip, zipOfLink } from './link-zip.js';
export { CLIENT_PASSWORD_FAILURES_PER_HOUR, LINK_PASSWORD_FAILURES_PER_HOUR } from './link-password.js';
