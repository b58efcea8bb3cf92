import type { Config } from './config/settings.js';
import { openConfiguredDatabase, type Database } from './db/database.js';
import { createOwnerOnlyFromNowOn, prepareDataDir } from './db/data-dir.js';
import { migrateToLatest } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import { metricsAreOn } from './http/metrics/register-metrics.js';
import { readTlsCredentials, type TlsCredentials, type TlsFiles } from './http/tls/tls-credentials.js';
import { bootstrapFirstStart, type BootstrapResult } from './identity/index.js';
import { systemClock } from './lib/time.js';
import { loadHostKeys, type HostKeys } from './sftp/host-keys.js';

/** What every server process reads before it serves: the certificate, and the data dir's permissions. */
export interface ProcessStart {
  tlsFiles: TlsFiles | undefined;
  tls: TlsCredentials | undefined;
}

/**
 * Checked before anything opens, so a bad certificate stops start-up at once; and from here on,
 * everything this process creates is its owner's alone.
 */
export function startProcess(config: Config): ProcessStart {
  const tlsFiles = tlsFilesOf(config);
  const tls = tlsFiles === undefined ? undefined : readTlsCredentials(tlsFiles);
  createOwnerOnlyFromNowOn();
  return { tlsFiles, tls };
}

/** The site's own database, opened by every server process. Statements are timed only for metrics, which are off unless asked for. */
export function openDatabase(config: Config): Database {
  return openConfiguredDatabase(config, { timeQueries: metricsAreOn(config) });
}

/** The work done once per start of the site, before any process serves. */
export interface SiteStart {
  database: Database;
  bootstrap: BootstrapResult;
}

/**
 * Once per start, in the one process that starts the others (or the only one): the data dir's
 * checks, the migrations and the first start's administrator, under the start-up lock so several
 * nodes on one PostgreSQL do it once.
 */
export async function prepareSite(config: Config): Promise<SiteStart> {
  for (const warning of prepareDataDir(config.dataDir)) process.stderr.write(`atrium: warning: ${warning}\n`);
  const database = openDatabase(config);
  try {
    const bootstrap = await withStartupLock(database, async () => {
      await migrateToLatest(database);
      return bootstrapFirstStart(database.db, systemClock, config);
    });
    return { database, bootstrap };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

/**
 * SFTP's host keys, when SFTP is on: read, or made on the site's first start (so the process that
 * prepares the site reads them first, and the workers it starts find them made).
 */
export async function sftpHostKeys(config: Config): Promise<HostKeys | undefined> {
  return config.sftpPort === undefined ? undefined : loadHostKeys({ dataDir: config.dataDir, files: config.sftpHostKeyFiles });
}

/**
 * Printed once, to standard error and not through the logger: standard output carries the JSON log
 * lines a collector parses and keeps, and these secrets belong in neither.
 */
export function printGeneratedCredentials(generated: NonNullable<BootstrapResult['generated']>): void {
  process.stderr.write(
    [
      '',
      'Atrium created its first Site Administrator. These secrets are shown only now:',
      `  username: ${generated.username}`,
      `  password: ${generated.password}`,
      `  API key:  ${generated.apiKey}`,
      '',
    ].join('\n') + '\n',
  );
}

/**
 * The rest of a start, after the site was prepared. Should it fail once the first start made the
 * administrator (the port taken, say), the secrets are printed before the failure is: the next
 * start finds the administrator made and will not show them again.
 */
export async function showingCredentialsIfItFails(bootstrap: BootstrapResult, rest: () => Promise<void>): Promise<void> {
  try {
    await rest();
  } catch (error) {
    if (bootstrap.generated !== undefined) printGeneratedCredentials(bootstrap.generated);
    throw error;
  }
}

/** The once-only messages of a start, after the server serves. */
export function reportBootstrap(bootstrap: BootstrapResult, log: { warn(message: string): void }): void {
  if (bootstrap.generated !== undefined) printGeneratedCredentials(bootstrap.generated);
  if (bootstrap.ignoredSettings !== undefined) {
    log.warn(`${bootstrap.ignoredSettings.join(', ')} ignored: bootstrap settings apply only to an empty database. `
      + 'To reset a password, run `npx atrium user set-password <username>` (see "Lost the administrator password?" in README.md)');
  }
}

function tlsFilesOf(config: Config): TlsFiles | undefined {
  if (config.tlsCertFile === undefined || config.tlsKeyFile === undefined) return undefined;
  return { certFile: config.tlsCertFile, keyFile: config.tlsKeyFile };
}
