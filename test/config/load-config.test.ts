import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load-config.js';

const load = (env: Record<string, string> = {}, argv: string[] = []) => loadConfig(env, argv);

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has the contract defaults', () => {
    const config = load();
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      headerBrands: ['Service', 'Files'],
      adminUsername: undefined,
      bootstrapApiKey: undefined,
      logLevel: 'info',
      accessLog: true,
      trustProxy: false,
      maxUploadBytes: 5 * 1024 ** 3,
    });
  });

  it('reads every setting from the environment', () => {
    const config = load({
      ATRIUM_HOST: '0.0.0.0',
      ATRIUM_PORT: '9000',
      ATRIUM_DATA_DIR: '/var/lib/atrium',
      ATRIUM_DATABASE_URL: 'postgres://atrium@db:5432/atrium',
      ATRIUM_HEADER_BRANDS: 'Service, Files',
      ATRIUM_ADMIN_USERNAME: 'admin',
      ATRIUM_ADMIN_PASSWORD: 'a long password',
      ATRIUM_BOOTSTRAP_API_KEY: 'k'.repeat(32),
      ATRIUM_LOG_LEVEL: 'warn',
      ATRIUM_ACCESS_LOG: 'false',
      ATRIUM_TRUST_PROXY: '10.0.0.0/8, 192.168.1.5',
      ATRIUM_MAX_UPLOAD_BYTES: '512M',
      ATRIUM_PUBLIC_URL: 'https://files.example.org/atrium/',
      ATRIUM_METRICS_TOKEN: 'm'.repeat(24),
      ATRIUM_METRICS_PORT: '9464',
      ATRIUM_MAX_CONNECTIONS: '500',
      ATRIUM_MAX_CONNECTIONS_PER_CLIENT: '20',
      ATRIUM_IDLE_TIMEOUT: '30s',
      ATRIUM_KEEP_ALIVE_TIMEOUT: '500ms',
      ATRIUM_JOB_LEASE: '5s',
      ATRIUM_SFTP_PORT: '2222',
      ATRIUM_SFTP_HOST_KEY_FILES: '/etc/atrium/ssh_host_ed25519_key, /etc/atrium/ssh_host_rsa_key',
      ATRIUM_WORKERS: '4',
    });
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 9000,
      dataDir: '/var/lib/atrium',
      databaseUrl: 'postgres://atrium@db:5432/atrium',
      headerBrands: ['Service', 'Files'],
      adminUsername: 'admin',
      adminPassword: 'a long password',
      bootstrapApiKey: 'k'.repeat(32),
      logLevel: 'warn',
      accessLog: false,
      trustProxy: ['10.0.0.0/8', '192.168.1.5'],
      maxUploadBytes: 512 * 1024 ** 2,
      tlsCertFile: undefined,
      tlsKeyFile: undefined,
      httpRedirectPort: undefined,
      publicUrl: 'https://files.example.org/atrium',
      metricsToken: 'm'.repeat(24),
      metricsPort: 9464,
      maxConnections: 500,
      maxConnectionsPerClient: 20,
      idleTimeoutMs: 30_000,
      keepAliveTimeoutMs: 500,
      jobLeaseMs: 5000,
      sftpPort: 2222,
      sftpHostKeyFiles: ['/etc/atrium/ssh_host_ed25519_key', '/etc/atrium/ssh_host_rsa_key'],
      workers: 4,
    });
  });

  it('runs one process unless told, and reads `auto` as one per core, decided at start-up', () => {
    expect(load({}).workers).toBe(1);
    expect(load({ ATRIUM_WORKERS: 'auto' }).workers).toBe('auto');
    expect(load({}, ['--workers', 'AUTO']).workers).toBe('auto');
  });

  it('lets a command-line flag win over its variable', () => {
    const config = load({ ATRIUM_PORT: '9000', ATRIUM_HEADER_BRANDS: 'Service' }, ['--port', '9100', '--header-brands=Files']);
    expect(config.port).toBe(9100);
    expect(config.headerBrands).toEqual(['Files']);
  });

  it.each([
    ['1048576', 1048576],
    ['64K', 64 * 1024],
    ['10 MiB', 10 * 1024 ** 2],
    ['2g', 2 * 1024 ** 3],
    ['1TB', 1024 ** 4],
  ])('reads the upload size limit %s as %d bytes', (text, bytes) => {
    expect(load({}, ['--max-upload-bytes', text]).maxUploadBytes).toBe(bytes);
  });

  it.each([
    [{ ATRIUM_PORT: 'eighty' }, [], 'ATRIUM_PORT'],
    [{ ATRIUM_PORT: '70000' }, [], 'ATRIUM_PORT'],
    [{ ATRIUM_DATABASE_URL: 'mysql://x@y/z' }, [], 'ATRIUM_DATABASE_URL'],
    [{ ATRIUM_DATABASE_URL: 'not a url' }, [], 'ATRIUM_DATABASE_URL'],
    [{ ATRIUM_HEADER_BRANDS: 'Serv-ice' }, [], 'ATRIUM_HEADER_BRANDS'],
    [{ ATRIUM_HEADER_BRANDS: ',' }, [], 'ATRIUM_HEADER_BRANDS'],
    [{ ATRIUM_BOOTSTRAP_API_KEY: 'short' }, [], 'ATRIUM_BOOTSTRAP_API_KEY'],
    [{ ATRIUM_ADMIN_USERNAME: 'admin' }, [], 'ATRIUM_ADMIN_PASSWORD'],
    [{ ATRIUM_ADMIN_PASSWORD: 'a long password' }, [], 'ATRIUM_ADMIN_USERNAME'],
    [{ ATRIUM_LOG_LEVEL: 'loud' }, [], 'ATRIUM_LOG_LEVEL'],
    [{ ATRIUM_ACCESS_LOG: 'maybe' }, [], 'ATRIUM_ACCESS_LOG'],
    [{ ATRIUM_TRUST_PROXY: '10.0.0.0/33' }, [], 'ATRIUM_TRUST_PROXY'],
    [{ ATRIUM_TRUST_PROXY: 'proxy.example' }, [], 'ATRIUM_TRUST_PROXY'],
    [{ ATRIUM_MAX_UPLOAD_BYTES: '0' }, [], 'ATRIUM_MAX_UPLOAD_BYTES'],
    [{ ATRIUM_MAX_UPLOAD_BYTES: 'lots' }, [], 'ATRIUM_MAX_UPLOAD_BYTES'],
    [{ ATRIUM_MAX_UPLOAD_BYTES: '1.5G' }, [], 'ATRIUM_MAX_UPLOAD_BYTES'],
    [{ ATRIUM_WORKERS: '0' }, [], 'ATRIUM_WORKERS'],
    [{ ATRIUM_JOB_LEASE: '2s' }, [], 'ATRIUM_JOB_LEASE'],
    [{ ATRIUM_JOB_LEASE: 'soon' }, [], 'ATRIUM_JOB_LEASE'],
    [{ ATRIUM_WORKERS: 'many' }, [], 'ATRIUM_WORKERS'],
    [{ ATRIUM_WORKERS: '2.5' }, [], 'ATRIUM_WORKERS'],
    [{}, ['--no-such-flag', 'x'], 'command line'],
  ])('names the setting in the error for %j %j', (env, argv, setting) => {
    const error = configError(() => load(env as Record<string, string>, argv as string[]));
    expect(error.setting).toBe(setting);
    expect(error.message.startsWith(`${setting}: `)).toBe(true);
    expect(error.message).not.toContain('\n');
  });
});
