import { randomBytes } from 'node:crypto';
import { hashPassword } from './passwords.js';
import { hashSecret, newApiKeySecret } from './secrets.js';
import { ConfigError } from '../config/config-error.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import { insertApiKey } from '../repositories/api-keys.js';
import { countUsers, insertUser } from '../repositories/users.js';
import { DEFAULT_SITE_SETTINGS } from './site-settings.js';

export interface BootstrapInput {
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  bootstrapApiKey: string | undefined;
}

/** What a first start created; secrets appear here only when Atrium generated them. */
export interface BootstrapResult {
  created: boolean;
  generated?: { username: string; password: string; apiKey: string };
  /**
   * The bootstrap settings that were given but not used because the database already had a user
   * or a key, so start-up can say so: a silent no-op looks like a password reset that worked.
   */
  ignoredSettings?: string[];
}

/** The settings that only a first start reads, with the names an operator sets them by. */
const BOOTSTRAP_SETTINGS: ReadonlyArray<readonly [keyof BootstrapInput, string]> = [
  ['adminUsername', 'ATRIUM_ADMIN_USERNAME'],
  ['adminPassword', 'ATRIUM_ADMIN_PASSWORD'],
  ['bootstrapApiKey', 'ATRIUM_BOOTSTRAP_API_KEY'],
];

const GENERATED_ADMIN_USERNAME = 'admin';

/**
 * First start (contract 8): on an empty database, create the first Site Administrator and/or a
 * site-wide key from the configuration, or generate both when nothing is configured. A database
 * that already has a user or a key is never touched. Runs under the start-up lock.
 */
export async function bootstrapFirstStart(db: Db, clock: Clock, input: BootstrapInput): Promise<BootstrapResult> {
  const hasKeys = (await db.selectFrom('api_keys').select('id').limit(1).executeTakeFirst()) !== undefined;
  if ((await countUsers(db)) > 0 || hasKeys) {
    const ignored = BOOTSTRAP_SETTINGS.filter(([key]) => input[key] !== undefined).map(([, name]) => name);
    return ignored.length === 0 ? { created: false } : { created: false, ignoredSettings: ignored };
  }

  const now = clock.now();
  const configured = input.adminUsername !== undefined || input.bootstrapApiKey !== undefined;
  if (input.adminPassword !== undefined && input.adminPassword.length < DEFAULT_SITE_SETTINGS.password_min_length) {
    throw new ConfigError('ATRIUM_ADMIN_PASSWORD', `must be at least ${DEFAULT_SITE_SETTINGS.password_min_length} characters`);
  }

  return db.transaction().execute(async (tx) => {
    if (configured) {
      if (input.adminUsername !== undefined && input.adminPassword !== undefined) {
        const passwordHash = await hashPassword(input.adminPassword);
        await insertUser(tx, { workspaceId: 0, username: input.adminUsername, passwordHash, siteAdmin: true, now });
      }
      if (input.bootstrapApiKey !== undefined) await insertSiteWideKey(tx, input.bootstrapApiKey, now);
      return { created: true };
    }
    const password = randomBytes(18).toString('base64url');
    const apiKey = newApiKeySecret();
    await insertUser(tx, { workspaceId: 0, username: GENERATED_ADMIN_USERNAME, passwordHash: await hashPassword(password), siteAdmin: true, now });
    await insertSiteWideKey(tx, apiKey, now);
    return { created: true, generated: { username: GENERATED_ADMIN_USERNAME, password, apiKey } };
  });
}

async function insertSiteWideKey(db: Db, secret: string, now: number): Promise<void> {
  const { lookup, hash } = hashSecret(secret);
  await insertApiKey(db, {
    name: 'Bootstrap key',
    userId: null,
    permissionSet: 'full',
    workspaceId: 0,
    lookup,
    secretHash: hash,
    expiresAt: null,
    now,
  });
}
