/**
 * Every start-up setting: its environment variable, its command-line flag and its default.
 * The table in README.md mirrors this list.
 */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** `undefined` selects the embedded SQLite database in `dataDir`. */
  databaseUrl: string | undefined;
  headerBrands: string[];
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  bootstrapApiKey: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  accessLog: boolean;
  /** Proxies whose X-Forwarded-For is believed: none (false), any (true), or these addresses/CIDRs. */
  trustProxy: boolean | string[];
  /** The largest file an upload may store, in bytes. */
  maxUploadBytes: number;
}

export interface SettingSpec {
  key: keyof Config;
  env: string;
  flag: string;
  defaultText: string;
  meaning: string;
}

export const SETTINGS: readonly SettingSpec[] = [
  { key: 'host', env: 'ATRIUM_HOST', flag: 'host', defaultText: '127.0.0.1', meaning: 'listen address' },
  { key: 'port', env: 'ATRIUM_PORT', flag: 'port', defaultText: '8080', meaning: 'listen port' },
  { key: 'dataDir', env: 'ATRIUM_DATA_DIR', flag: 'data-dir', defaultText: './data', meaning: 'embedded database and file contents' },
  { key: 'databaseUrl', env: 'ATRIUM_DATABASE_URL', flag: 'database-url', defaultText: 'SQLite file in the data dir', meaning: '`postgres://...` selects PostgreSQL' },
  { key: 'headerBrands', env: 'ATRIUM_HEADER_BRANDS', flag: 'header-brands', defaultText: 'Service', meaning: 'brands accepted in header names (`Service,Files` accepts both)' },
  { key: 'adminUsername', env: 'ATRIUM_ADMIN_USERNAME', flag: 'admin-username', defaultText: 'none', meaning: 'first Site Administrator, on first start' },
  { key: 'adminPassword', env: 'ATRIUM_ADMIN_PASSWORD', flag: 'admin-password', defaultText: 'none', meaning: "that administrator's password" },
  { key: 'bootstrapApiKey', env: 'ATRIUM_BOOTSTRAP_API_KEY', flag: 'bootstrap-api-key', defaultText: 'none', meaning: 'on first start, a site-wide `full` key with exactly this secret (32+ characters)' },
  { key: 'logLevel', env: 'ATRIUM_LOG_LEVEL', flag: 'log-level', defaultText: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent' },
  { key: 'trustProxy', env: 'ATRIUM_TRUST_PROXY', flag: 'trust-proxy', defaultText: 'false', meaning: 'believe X-Forwarded-For from these proxies: `true` (any), or comma-separated addresses/CIDRs of the load balancers' },
  { key: 'maxUploadBytes', env: 'ATRIUM_MAX_UPLOAD_BYTES', flag: 'max-upload-bytes', defaultText: '5G', meaning: 'largest file an upload may store: bytes, or with a K, M, G or T suffix (powers of 1024)' },
  { key: 'accessLog', env: 'ATRIUM_ACCESS_LOG', flag: 'access-log', defaultText: 'true', meaning: 'one log line per request (`false` halves logging cost)' },
];
