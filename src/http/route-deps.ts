import type { SftpListenerFacts } from '../connect/index.js';
import type { Database, Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import type { FileOperations } from '../files/index.js';
import type { SecretBox } from '../identity/index.js';
import type { SingleSignOn } from '../sso/index.js';
import type { BrandHeaders } from './brand-headers.js';

/** What route modules need from the app: the database, the clock, the header names and the file operations. */
export interface RouteDeps {
  database: Database;
  db: Db;
  clock: Clock;
  headers: BrandHeaders;
  /** Every file operation (the folder and file routes). */
  files: FileOperations;
  /** Seals and opens the secrets Atrium reads back (TOTP secrets, identity providers' client secrets). */
  secretBox: SecretBox;
  /** Sign-in and reauthentication with OpenID Connect providers (the console's browser flow). */
  sso: SingleSignOn;
  /** `<type> SHA256:<base64>` of each SFTP host key, when SFTP is on (GET /site). */
  sftpHostKeyFingerprints?: readonly string[] | undefined;
  /** The SFTP listener's port and host keys, when SFTP is on (GET /connection_details). */
  sftpListener?: SftpListenerFacts | undefined;
}
