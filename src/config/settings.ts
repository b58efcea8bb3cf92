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
  /** PEM certificate (chain allowed) and key: both set serves HTTPS instead of HTTP. */
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  /** Under HTTPS, a plain HTTP port that only redirects to the HTTPS URL. */
  httpRedirectPort: number | undefined;
  /** The scheme, host and optional path clients reach Atrium at (no trailing slash), for transfer links. */
  publicUrl: string | undefined;
  /** Bearer token that opens GET /metrics on the public port; `undefined` keeps it closed there. */
  metricsToken: string | undefined;
  /** A separate metrics listener on 127.0.0.1 only. */
  metricsPort: number | undefined;
  /** Open connections in all, and from one client address; 0 means no limit. */
  maxConnections: number;
  maxConnectionsPerClient: number;
  /** A connection that sends and receives nothing for this long (headers, body or between requests) is closed. */
  idleTimeoutMs: number;
  /** How long an idle keep-alive connection is kept between requests. */
  keepAliveTimeoutMs: number;
  /** The SFTP front door's port (docs/sftp.md), on the same address as the API; off when unset. */
  sftpPort: number | undefined;
  /** SFTP host private keys to use instead of the ones generated into the data dir. */
  sftpHostKeyFiles: string[] | undefined;
  /** Server processes sharing the ports: a count, or `auto` for one per CPU core this process may use. */
  workers: number | 'auto';
  /** How long a node holds a background job without a heartbeat (docs/background-jobs.md). */
  jobLeaseMs: number;
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
  { key: 'headerBrands', env: 'ATRIUM_HEADER_BRANDS', flag: 'header-brands', defaultText: 'Service,Files', meaning: 'brands accepted in header names (`Service` alone refuses the Files.com SDKs\' `X-FilesAPI-Key`)' },
  { key: 'adminUsername', env: 'ATRIUM_ADMIN_USERNAME', flag: 'admin-username', defaultText: 'none', meaning: 'first Site Administrator, on first start' },
  { key: 'adminPassword', env: 'ATRIUM_ADMIN_PASSWORD', flag: 'admin-password', defaultText: 'none', meaning: "that administrator's password" },
  { key: 'bootstrapApiKey', env: 'ATRIUM_BOOTSTRAP_API_KEY', flag: 'bootstrap-api-key', defaultText: 'none', meaning: 'on first start, a site-wide `full` key with exactly this secret (32+ characters)' },
  { key: 'logLevel', env: 'ATRIUM_LOG_LEVEL', flag: 'log-level', defaultText: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent' },
  { key: 'trustProxy', env: 'ATRIUM_TRUST_PROXY', flag: 'trust-proxy', defaultText: 'false', meaning: 'believe X-Forwarded-For from these proxies: `true` (any), or comma-separated addresses/CIDRs of the load balancers' },
  { key: 'maxUploadBytes', env: 'ATRIUM_MAX_UPLOAD_BYTES', flag: 'max-upload-bytes', defaultText: '5G', meaning: 'largest file an upload may store: bytes, or with a K, M, G or T suffix (powers of 1024)' },
  { key: 'tlsCertFile', env: 'ATRIUM_TLS_CERT_FILE', flag: 'tls-cert-file', defaultText: 'none (plain HTTP)', meaning: 'PEM certificate, chain allowed; with the key, Atrium serves HTTPS (TLS 1.2+) and re-reads both on SIGHUP' },
  { key: 'tlsKeyFile', env: 'ATRIUM_TLS_KEY_FILE', flag: 'tls-key-file', defaultText: 'none', meaning: "PEM private key of that certificate" },
  { key: 'httpRedirectPort', env: 'ATRIUM_HTTP_REDIRECT_PORT', flag: 'http-redirect-port', defaultText: 'none', meaning: 'under HTTPS, a plain HTTP port that redirects every request to the HTTPS URL' },
  { key: 'publicUrl', env: 'ATRIUM_PUBLIC_URL', flag: 'public-url', defaultText: "the request's scheme and host", meaning: 'the `http(s)://host[:port][/path]` clients reach Atrium at, used in upload and download links' },
  { key: 'metricsToken', env: 'ATRIUM_METRICS_TOKEN', flag: 'metrics-token', defaultText: 'none (metrics off)', meaning: 'serves `GET /metrics` (Prometheus) to `Authorization: Bearer <token>`, 16+ characters; prefer the variable, a flag shows in the process list' },
  { key: 'metricsPort', env: 'ATRIUM_METRICS_PORT', flag: 'metrics-port', defaultText: 'none (metrics off)', meaning: 'serves `GET /metrics` on its own listener bound to 127.0.0.1 only (with the token too, when one is set)' },
  { key: 'maxConnections', env: 'ATRIUM_MAX_CONNECTIONS', flag: 'max-connections', defaultText: '10000', meaning: 'open connections in all; more are refused (0: no limit)' },
  { key: 'maxConnectionsPerClient', env: 'ATRIUM_MAX_CONNECTIONS_PER_CLIENT', flag: 'max-connections-per-client', defaultText: '256', meaning: 'open connections from one client address (behind a load balancer, that is the balancer: raise it or use 0, no limit)' },
  { key: 'idleTimeoutMs', env: 'ATRIUM_IDLE_TIMEOUT', flag: 'idle-timeout', defaultText: '60s', meaning: 'a connection that moves no byte for this long (stalled headers or body, or a silent client) is closed; `500ms`, `30s`, `2m`' },
  { key: 'keepAliveTimeoutMs', env: 'ATRIUM_KEEP_ALIVE_TIMEOUT', flag: 'keep-alive-timeout', defaultText: '72s', meaning: 'how long an idle keep-alive connection waits for its next request; keep it above the load balancer\'s idle timeout' },
  { key: 'sftpPort', env: 'ATRIUM_SFTP_PORT', flag: 'sftp-port', defaultText: 'none (SFTP off)', meaning: 'serves SFTP on this port, on the same address (docs/sftp.md)' },
  { key: 'sftpHostKeyFiles', env: 'ATRIUM_SFTP_HOST_KEY_FILES', flag: 'sftp-host-key-files', defaultText: 'generated in the data dir', meaning: 'comma-separated SFTP host private key files (OpenSSH or PEM, unencrypted) instead of the generated Ed25519 and RSA keys' },
  { key: 'workers', env: 'ATRIUM_WORKERS', flag: 'workers', defaultText: '1', meaning: 'server processes sharing the ports, each on its own core: a number, or `auto` for one per CPU core available (docs/deployment.md)' },
  { key: 'jobLeaseMs', env: 'ATRIUM_JOB_LEASE', flag: 'job-lease', defaultText: '60s', meaning: 'how long a node holds a background job (an automation run) without a heartbeat: a node that dies hands its job to another this long after its last one; at least 3s' },
  { key: 'accessLog', env: 'ATRIUM_ACCESS_LOG', flag: 'access-log', defaultText: 'true', meaning: 'one log line per request (`false` halves logging cost)' },
];
