import { isIP } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from './config-error.js';
import { SETTINGS, type Config } from './settings.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const BRAND_PATTERN = /^[A-Za-z][A-Za-z0-9]*$/;
const MIN_BOOTSTRAP_KEY_LENGTH = 32;
// 5 GiB: large enough for most self-hosted use, small enough that one client cannot fill a disk
// by accident. Uploads are streamed, so the limit bounds disk use, never memory.
export const DEFAULT_MAX_UPLOAD_BYTES = 5 * 1024 ** 3;
const BYTE_UNITS: Readonly<Record<string, number>> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

/**
 * The only reader of the environment and the command line. A flag wins over its variable.
 * Every problem is a ConfigError naming the setting, so start-up can print one clear line.
 */
export function loadConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): Config {
  const raw = readRawSettings(env, argv);
  const text = (key: keyof Config): string | undefined => {
    const value = raw.get(key);
    return value === undefined || value === '' ? undefined : value;
  };

  const config: Config = {
    host: text('host') ?? '127.0.0.1',
    port: parsePort('ATRIUM_PORT', text('port'), 8080),
    dataDir: path.resolve(text('dataDir') ?? './data'),
    databaseUrl: parseDatabaseUrl(text('databaseUrl')),
    headerBrands: parseBrands(text('headerBrands')),
    adminUsername: text('adminUsername'),
    adminPassword: text('adminPassword'),
    bootstrapApiKey: text('bootstrapApiKey'),
    logLevel: parseLogLevel(text('logLevel')),
    accessLog: parseBoolean('ATRIUM_ACCESS_LOG', text('accessLog'), true),
    trustProxy: parseTrustProxy(text('trustProxy')),
    maxUploadBytes: parseByteSize('ATRIUM_MAX_UPLOAD_BYTES', text('maxUploadBytes'), DEFAULT_MAX_UPLOAD_BYTES),
    tlsCertFile: optionalPath(text('tlsCertFile')),
    tlsKeyFile: optionalPath(text('tlsKeyFile')),
    httpRedirectPort: parsePort('ATRIUM_HTTP_REDIRECT_PORT', text('httpRedirectPort'), undefined),
    publicUrl: parsePublicUrl(text('publicUrl')),
    metricsToken: parseMetricsToken(text('metricsToken')),
    metricsPort: parsePort('ATRIUM_METRICS_PORT', text('metricsPort'), undefined),
    maxConnections: parseCount('ATRIUM_MAX_CONNECTIONS', text('maxConnections'), 10_000),
    maxConnectionsPerClient: parseCount('ATRIUM_MAX_CONNECTIONS_PER_CLIENT', text('maxConnectionsPerClient'), 256),
    idleTimeoutMs: parseDuration('ATRIUM_IDLE_TIMEOUT', text('idleTimeoutMs'), 60_000),
    keepAliveTimeoutMs: parseDuration('ATRIUM_KEEP_ALIVE_TIMEOUT', text('keepAliveTimeoutMs'), 72_000),
    sftpPort: parsePort('ATRIUM_SFTP_PORT', text('sftpPort'), undefined),
    workers: parseWorkers(text('workers')),
    jobLeaseMs: parseJobLease(text('jobLeaseMs')),
    sftpHostKeyFiles: text('sftpHostKeyFiles')?.split(',').map((file) => file.trim()).filter((file) => file !== '').map((file) => path.resolve(file)),
  };
  checkBootstrap(config);
  checkTls(config);
  return config;
}

function readRawSettings(env: NodeJS.ProcessEnv, argv: readonly string[]): Map<keyof Config, string> {
  let flags: Record<string, string | boolean | undefined>;
  try {
    flags = parseArgs({
      args: [...argv],
      options: Object.fromEntries(SETTINGS.map((s) => [s.flag, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new ConfigError('command line', (error as Error).message);
  }
  const raw = new Map<keyof Config, string>();
  for (const setting of SETTINGS) {
    const value = flags[setting.flag] ?? env[setting.env];
    if (typeof value === 'string') raw.set(setting.key, value.trim());
  }
  return raw;
}

function parsePort<F extends number | undefined>(name: string, value: string | undefined, fallback: F): number | F {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new ConfigError(name, `"${value}" is not a port number (0 to 65535)`);
  return port;
}

function parseDatabaseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('ATRIUM_DATABASE_URL', 'is not a URL (expected postgres://user@host:port/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('ATRIUM_DATABASE_URL', `unsupported scheme "${url.protocol}" (only postgres:// is supported; leave it unset for the embedded database)`);
  }
  return value;
}

// Both brands out of the box, so the Files.com SDKs work unchanged beside clients written for Atrium.
export const DEFAULT_HEADER_BRANDS: readonly string[] = ['Service', 'Files'];

function parseBrands(value: string | undefined): string[] {
  if (value === undefined) return [...DEFAULT_HEADER_BRANDS];
  const brands = value.split(',').map((b) => b.trim()).filter((b) => b !== '');
  const bad = brands.find((b) => !BRAND_PATTERN.test(b));
  if (brands.length === 0 || bad !== undefined) {
    throw new ConfigError('ATRIUM_HEADER_BRANDS', `expected comma-separated words of letters and digits, got "${value}"`);
  }
  return [...new Set(brands)];
}

function parseLogLevel(value: string | undefined): Config['logLevel'] {
  if (value === undefined) return 'info';
  const level = LOG_LEVELS.find((l) => l === value.toLowerCase());
  if (level === undefined) throw new ConfigError('ATRIUM_LOG_LEVEL', `"${value}" is not one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  if (/^(false|0|no|off)$/i.test(value)) return false;
  throw new ConfigError(name, `"${value}" is not true or false`);
}

/**
 * Off by default: behind no proxy, X-Forwarded-For is whatever a client wants it to be, and the
 * per-client login limit must count the socket's address instead.
 */
function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || /^(false|0|no|off)$/i.test(value)) return false;
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const bad = entries.find((entry) => {
    const [address, prefix, ...rest] = entry.split('/');
    if (rest.length > 0 || address === undefined || isIP(address) === 0) return true;
    return prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= (isIP(address) === 4 ? 32 : 128));
  });
  if (entries.length === 0 || bad !== undefined) {
    throw new ConfigError('ATRIUM_TRUST_PROXY', `expected true, false, or comma-separated addresses or CIDRs, got "${bad ?? value}"`);
  }
  return entries;
}

/** `1048576`, `512M`, `5G`: a positive whole number of bytes, with an optional binary unit. */
function parseByteSize(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const match = /^(\d+)\s*([KMGT]?)(?:i?B)?$/i.exec(value);
  const bytes = match === null ? NaN : Number(match[1]) * (BYTE_UNITS[(match[2] as string).toUpperCase()] as number);
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new ConfigError(name, `"${value}" is not a size in bytes (for example 1048576, 512M or 5G)`);
  }
  return bytes;
}

function checkBootstrap(config: Config): void {
  if ((config.adminUsername === undefined) !== (config.adminPassword === undefined)) {
    const missing = config.adminUsername === undefined ? 'ATRIUM_ADMIN_USERNAME' : 'ATRIUM_ADMIN_PASSWORD';
    throw new ConfigError(missing, 'must be set together with its pair (ATRIUM_ADMIN_USERNAME and ATRIUM_ADMIN_PASSWORD)');
  }
  if (config.bootstrapApiKey !== undefined && config.bootstrapApiKey.length < MIN_BOOTSTRAP_KEY_LENGTH) {
    throw new ConfigError('ATRIUM_BOOTSTRAP_API_KEY', `must be at least ${MIN_BOOTSTRAP_KEY_LENGTH} characters`);
  }
}

function optionalPath(value: string | undefined): string | undefined {
  return value === undefined ? undefined : path.resolve(value);
}


/** The base of every transfer link: scheme, host and an optional path, and nothing a link could not carry. */
function parsePublicUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('ATRIUM_PUBLIC_URL', `"${value}" is not a URL (expected https://host[:port][/path])`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('ATRIUM_PUBLIC_URL', `unsupported scheme "${url.protocol}" (expected http:// or https://)`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '' || value.includes('?') || value.includes('#')) {
    throw new ConfigError('ATRIUM_PUBLIC_URL', 'must be a scheme, host and optional path, without a query, fragment or credentials');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** HTTPS needs both files; the redirect listener only makes sense beside an HTTPS one. */
function checkTls(config: Config): void {
  if ((config.tlsCertFile === undefined) !== (config.tlsKeyFile === undefined)) {
    const missing = config.tlsCertFile === undefined ? 'ATRIUM_TLS_CERT_FILE' : 'ATRIUM_TLS_KEY_FILE';
    throw new ConfigError(missing, 'must be set together with its pair (ATRIUM_TLS_CERT_FILE and ATRIUM_TLS_KEY_FILE)');
  }
  if (config.httpRedirectPort !== undefined && config.tlsCertFile === undefined) {
    throw new ConfigError('ATRIUM_HTTP_REDIRECT_PORT', 'needs HTTPS (ATRIUM_TLS_CERT_FILE and ATRIUM_TLS_KEY_FILE)');
  }
  if (config.httpRedirectPort !== undefined && config.httpRedirectPort !== 0 && config.httpRedirectPort === config.port) {
    throw new ConfigError('ATRIUM_HTTP_REDIRECT_PORT', `must differ from ATRIUM_PORT (${config.port})`);
  }
}

const MIN_METRICS_TOKEN_LENGTH = 16;

/** A short token would be guessed; the value itself is never repeated in the message. */
function parseMetricsToken(value: string | undefined): string | undefined {
  if (value !== undefined && value.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new ConfigError('ATRIUM_METRICS_TOKEN', `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters`);
  }
  return value;
}

const MAX_WORKERS = 256;

/** `auto` (one per core, decided at start-up) or a whole number of processes, at least 1. */
function parseWorkers(value: string | undefined): number | 'auto' {
  if (value === undefined) return 1;
  if (value.toLowerCase() === 'auto') return 'auto';
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > MAX_WORKERS) {
    throw new ConfigError('ATRIUM_WORKERS', `"${value}" is not a number of processes (1 to ${MAX_WORKERS}) or auto`);
  }
  return count;
}

/** A whole number of things, 0 meaning no limit. */
function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const count = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(count)) throw new ConfigError(name, `"${value}" is not a whole number (0 for no limit)`);
  return count;
}

const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

/** `500ms`, `30s`, `2m`, or a bare number of seconds; always more than zero. */
/** The job lease: a heartbeat comes every third of it, so below 3 s one slow database turn could lose a job that is alive. */
function parseJobLease(value: string | undefined): number {
  const ms = parseDuration('ATRIUM_JOB_LEASE', value, 60_000);
  if (ms < 3000) throw new ConfigError('ATRIUM_JOB_LEASE', `"${value}" is shorter than 3s: a node's heartbeat could come late`);
  return ms;
}

function parseDuration(name: string, value: string | undefined, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const match = /^(\d+)\s*(ms|s|m)?$/i.exec(value);
  const ms = match === null ? NaN : Number(match[1]) * (DURATION_UNITS[(match[2] ?? 's').toLowerCase()] as number);
  if (!Number.isSafeInteger(ms) || ms < 1) throw new ConfigError(name, `"${value}" is not a duration (for example 500ms, 30s or 2m)`);
  return ms;
}
