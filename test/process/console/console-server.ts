import { randomBytes } from 'node:crypto';
import Sqlite from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateOpenSshKeyPairSync } from '../../../src/lib/openssh-key-pair.js';
import { pathKey } from '../../../src/lib/paths.js';
import { adminQuery, POSTGRES_TEST_URL } from '../../support/postgres-server.js';
import { startServer, type ServerProcess } from '../../support/server-process.js';

export const ADMIN = { username: 'first-admin', password: 'a sufficiently long password' };
/** The site-wide key the server is started with. */
export const KEY_FOR_TESTS = 'console-test-bootstrap-key-0123456789abcdef-01';
const KEY = KEY_FOR_TESTS;

export interface ConsoleServer {
  server: ServerProcess;
  baseUrl: string;
  /** A request to the REST API as the site-wide bootstrap key; the JSON body, or throws. */
  admin(method: string, url: string, body?: unknown, workspaceId?: number): Promise<any>;
  /**
   * Makes every session look idle for `ms` longer, as if that time had passed with no request:
   * a test of the idle timeout need not wait it out. Written in the database as another process
   * would, which the server's read caches notice.
   */
  ageSessions(ms: number): Promise<void>;
  /**
   * Ends the time every sign-in waiting at its second step has left (partial sessions), as if it
   * had run out: a test of that need not wait it out. Written in the database as `ageSessions` does.
   */
  expirePartialSessions(): Promise<void>;
  /**
   * Puts empty folders named `names` into the Default Workspace's `folder`, in the database as
   * another process would (the server's read caches notice): a folder of thousands of entries for
   * a test about showing one, without a request for each (what making a folder does is tested
   * through the API elsewhere).
   */
  addFolders(folder: string, names: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * An Ed25519 host key in the server's temporary data dir, named by ATRIUM_SFTP_HOST_KEY_FILES: the
 * server then generates none, and the 3072-bit RSA key it would make costs seconds of a busy CPU.
 */
function ed25519HostKey(dataDir: string): string {
  const file = path.join(dataDir, 'console-test-host-key');
  fs.writeFileSync(file, generateOpenSshKeyPairSync('ed25519', { comment: 'console test host key' }).private, { mode: 0o600 });
  return file;
}

/**
 * The built server (with its console) on a fresh SQLite or PostgreSQL database; with `sftp`, SFTP
 * listens too, on a port of the system's choosing (what the Connect panel shows). `env` adds to
 * the server's environment (NODE_EXTRA_CA_CERTS: a test's certificate authority it trusts).
 */
export async function startConsoleServer(database: 'sqlite' | 'postgres', options: { sftp?: boolean; env?: Record<string, string> } = {}): Promise<ConsoleServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-console-'));
  const schema = `atrium_console_${randomBytes(4).toString('hex')}`;
  const env: Record<string, string> = {
    ATRIUM_DATA_DIR: dataDir,
    ATRIUM_ADMIN_USERNAME: ADMIN.username,
    ATRIUM_ADMIN_PASSWORD: ADMIN.password,
    ATRIUM_BOOTSTRAP_API_KEY: KEY,
    ...(options.sftp === true ? { ATRIUM_SFTP_PORT: '0', ATRIUM_SFTP_HOST_KEY_FILES: ed25519HostKey(dataDir) } : {}),
    ...options.env,
  };
  if (database === 'postgres') {
    await adminQuery(`create schema ${schema}`);
    env.ATRIUM_DATABASE_URL = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  }
  const server = await startServer(env);
  /**
   * A statement on the server's PostgreSQL schema, as another process would: in its search path,
   * where the data version's triggers (db/migrations/009-data-version.ts) find their table.
   */
  const inPostgres = (statement: string) => adminQuery(`set search_path to ${schema}; ${statement}`);
  /** The SQLite database opened beside the server, as another process would. */
  const inSqlite = (write: (db: Sqlite.Database) => void) => {
    const db = new Sqlite(path.join(dataDir, 'atrium.sqlite'));
    try {
      db.pragma('busy_timeout = 5000');
      write(db);
    } finally {
      db.close();
    }
  };
  return {
    server,
    baseUrl: server.baseUrl,
    async admin(method, url, body, workspaceId) {
      const response = await fetch(`${server.baseUrl}/api/rest/v1${url}`, {
        method,
        headers: {
          'X-ServiceAPI-Key': KEY,
          ...(workspaceId === undefined ? {} : { 'X-Service-Workspace-Id': String(workspaceId) }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
      return text === '' ? undefined : JSON.parse(text);
    },
    async ageSessions(ms) {
      const set = `set last_active_at = last_active_at - ${Math.trunc(ms)}`;
      if (database === 'postgres') return inPostgres(`update sessions ${set}`);
      inSqlite((db) => db.prepare(`update sessions ${set}`).run());
    },
    async expirePartialSessions() {
      const set = `set expires_at = ${Date.now() - 1}`;
      if (database === 'postgres') return inPostgres(`update partial_sessions ${set}`);
      inSqlite((db) => db.prepare(`update partial_sessions ${set}`).run());
    },
    async addFolders(folder, names) {
      const now = Date.now();
      const rows = names.map((name) => [`${folder}/${name}`, pathKey(`${folder}/${name}`), pathKey(folder)] as const);
      const columns = '(path, path_key, parent_key, type, created_at, mtime)';
      if (database === 'postgres') {
        const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
        const values = rows.map(([path, key, parent]) => `(${quoted(path)}, ${quoted(key)}, ${quoted(parent)}, 'directory', ${now}, ${now})`);
        return inPostgres(`insert into entries ${columns} values ${values.join(', ')}`);
      }
      inSqlite((db) => {
        const insert = db.prepare(`insert into entries ${columns} values (?, ?, ?, 'directory', ?, ?)`);
        db.transaction(() => { for (const [path, key, parent] of rows) insert.run(path, key, parent, now, now); })();
      });
    },
    async stop() {
      await server.stop('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (database === 'postgres') await adminQuery(`drop schema if exists ${schema} cascade`);
    },
  };
}
