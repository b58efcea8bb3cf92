import type { Migration, MigrationProvider } from 'kysely';
import type { DialectName } from '../dialect.js';
import { initialSchema } from './001-initial-schema.js';
import { filesAndUploads } from './002-files-and-uploads.js';
import { externalIds } from './003-external-ids.js';
import { listingSortIndexes } from './004-listing-sort-indexes.js';
import { history } from './005-history.js';
import { davProperties } from './006-dav-properties.js';
import { davLocks } from './007-dav-locks.js';
import { publicKeys } from './008-public-keys.js';
import { dataVersion } from './009-data-version.js';
import { userNameParts } from './010-user-name-parts.js';
import { userSearchKeys } from './011-user-search-keys.js';
import { userProfileFields } from './012-user-profile-fields.js';
import { apiKeyDescription } from './013-api-key-description.js';
import { fileEntryFields } from './014-file-entry-fields.js';
import { listingProvidedMtimeIndex } from './015-listing-provided-mtime-index.js';
import { lockAnyUserAccess } from './016-lock-any-user-access.js';
import { userActivityAndGroupAddresses } from './017-user-activity-and-group-addresses.js';
import { partners } from './018-partners.js';
import { partnerUsers } from './019-partner-users.js';
import { partnerGrants } from './020-partner-grants.js';
import { jobs } from './021-jobs.js';
import { automations } from './022-automations.js';
import { automationWork } from './023-automation-work.js';
import { automationWatchVersion } from './024-automation-watch-version.js';
import { bundles } from './025-bundles.js';
import { bundleVisits } from './026-bundle-visits.js';
import { trashAndVersions } from './027-trash-and-versions.js';
import { entryNameSearch } from './028-entry-name-search.js';
import { userLastWorkspace } from './030-user-last-workspace.js';
import { twoFactor } from './031-two-factor.js';
import { singleSignOn } from './032-single-sign-on.js';
import { passkeys } from './033-passkeys.js';
import { entryNamesByWorkspace } from './034-entry-names-by-workspace.js';
import { pendingFileDigests } from './035-pending-file-digests.js';
import { entryNameKeys } from './036-entry-name-keys.js';

/**
 * Every migration, in order, listed statically (no directory scanning, so the build output and
 * the source agree). One set serves both databases; each takes the dialect for the few
 * column types that differ.
 */
export function migrationProvider(dialect: DialectName): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001-initial-schema': initialSchema(dialect),
    '002-files-and-uploads': filesAndUploads(dialect),
    '003-external-ids': externalIds(dialect),
    '004-listing-sort-indexes': listingSortIndexes(),
    '005-history': history(dialect),
    '006-dav-properties': davProperties(),
    '007-dav-locks': davLocks(dialect),
    '008-public-keys': publicKeys(dialect),
    '009-data-version': dataVersion(dialect),
    '010-user-name-parts': userNameParts(),
    '011-user-search-keys': userSearchKeys(),
    '012-user-profile-fields': userProfileFields(dialect),
    '013-api-key-description': apiKeyDescription(),
    '014-file-entry-fields': fileEntryFields(dialect),
    '015-listing-provided-mtime-index': listingProvidedMtimeIndex(),
    '016-lock-any-user-access': lockAnyUserAccess(dialect),
    '017-user-activity-and-group-addresses': userActivityAndGroupAddresses(dialect),
    '018-partners': partners(dialect),
    '019-partner-users': partnerUsers(dialect),
    '020-partner-grants': partnerGrants(),
    '021-jobs': jobs(dialect),
    '022-automations': automations(dialect),
    '023-automation-work': automationWork(dialect),
    '024-automation-watch-version': automationWatchVersion(dialect),
    '025-bundles': bundles(dialect),
    '026-bundle-visits': bundleVisits(dialect),
    '027-trash-and-versions': trashAndVersions(dialect),
    '028-entry-name-search': entryNameSearch(dialect),
    '030-user-last-workspace': userLastWorkspace(),
    '031-two-factor': twoFactor(dialect),
    '032-single-sign-on': singleSignOn(dialect),
    '033-passkeys': passkeys(dialect),
    '034-entry-names-by-workspace': entryNamesByWorkspace(dialect),
    '035-pending-file-digests': pendingFileDigests(),
    '036-entry-name-keys': entryNameKeys(dialect),
  };
  return { getMigrations: async () => migrations };
}
