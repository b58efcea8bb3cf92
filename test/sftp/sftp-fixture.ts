import { Client, type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { loadHostKeys } from '../../src/sftp/host-keys.js';
import type { IdleTimers } from '../../src/sftp/idle-timeout.js';
import type { PublicKeyLookup } from '../../src/sftp/sftp-auth.js';
import { startSftpServer, type SftpServer } from '../../src/sftp/sftp-server.js';
import type { SignInLimitSettings } from '../../src/sftp/sign-in-limits.js';
import type { TestDatabaseTarget } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A test app with the SFTP front door on a random port, over the same core. */
export interface SftpTestApp extends TestApp {
  sftpServer: SftpServer;
  /** Connects with the ssh2 client; `close()` ends the connection. */
  connect(config: ConnectConfig): Promise<SftpConnection>;
}

export interface SftpConnection {
  client: Client;
  sftp: SFTPWrapper;
  close(): void;
}

export async function startSftpTestApp(target: TestDatabaseTarget, options: { limits?: Partial<SignInLimitSettings>; publicKeys?: PublicKeyLookup; idleTimeoutMs?: number; idleTimers?: IdleTimers; trustProxy?: string[] } = {}): Promise<SftpTestApp> {
  const t = await startTestApp(target, { trustProxy: options.trustProxy });
  const hostKeys = await loadHostKeys({ dataDir: t.dataDir, files: undefined });
  const sftpServer = await startSftpServer(
    { db: t.database.db, clock: t.clock, files: t.core.files, passwords: t.core.passwords, hostKeys, limits: options.limits, publicKeys: options.publicKeys, idleTimeoutMs: options.idleTimeoutMs, idleTimers: options.idleTimers },
    { host: '127.0.0.1', port: 0 },
  );
  return {
    ...t,
    sftpServer,
    connect: (config) => connectSftp({ host: '127.0.0.1', port: sftpServer.port, ...config }),
    async close() {
      await sftpServer.close();
      await t.close();
    },
  };
}

export function connectSftp(config: ConnectConfig): Promise<SftpConnection> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.on('error', reject);
    client.once('close', () => reject(new Error('connection closed before sign-in')));
    client.once('ready', () => {
      client.sftp((error, sftp) => {
        if (error !== undefined && error !== null) {
          client.end();
          reject(error);
          return;
        }
        resolve({ client, sftp, close: () => client.end() });
      });
    });
    client.connect({ readyTimeout: 10_000, ...config });
  });
}

/** Runs an ssh2 SFTP client call as a promise. */
export function call<T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
}
