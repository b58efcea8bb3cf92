import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { activity, type ActivityEvents } from '../../lib/activity.js';

/**
 * Metrics for what the features and the other doors report on `activity` (lib/activity.ts):
 * sign-ins, lockouts, bytes moved, SFTP sessions and WebDAV requests. WebDAV requests are timed
 * in `requestBuckets`, the REST requests' buckets, so the two compare. Answers the function that
 * stops listening, for when the app closes.
 */
export function registerActivityCounters(registry: Registry, requestBuckets: number[]): () => void {
  const logins = new Counter({ name: 'atrium_logins_total', help: 'Password sign-ins by outcome.', labelNames: ['outcome'] as const, registers: [registry] });
  // Both outcomes are shown from the start, so a rate over them works before the first failure.
  for (const outcome of ['succeeded', 'failed']) logins.inc({ outcome }, 0);
  const lockouts = new Counter({ name: 'atrium_lockouts_total', help: 'Usernames locked out after too many failed sign-ins.', registers: [registry] });
  const uploaded = new Counter({ name: 'atrium_uploaded_bytes_total', help: 'Bytes of file contents committed by uploads.', registers: [registry] });
  const downloaded = new Counter({ name: 'atrium_downloaded_bytes_total', help: 'Bytes of file contents read out by downloads.', registers: [registry] });
  const sftpOpen = new Gauge({ name: 'atrium_sftp_sessions_open', help: 'SFTP connections signed in and still open.', registers: [registry] });
  const sftpSessions = new Counter({
    name: 'atrium_sftp_sessions_total',
    help: 'SFTP connections that signed in (started), or were turned away by the connection limits or closed after failed sign-ins (refused).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['started', 'refused']) sftpSessions.inc({ outcome }, 0);
  const webdavRequests = new Histogram({
    name: 'atrium_webdav_request_duration_seconds',
    help: 'WebDAV requests by method and status class (2xx, 4xx, ...), with their latency; _count counts them.',
    labelNames: ['method', 'status_class'] as const,
    buckets: requestBuckets,
    registers: [registry],
  });

  const listeners: { [E in keyof ActivityEvents]: (...args: ActivityEvents[E]) => void } = {
    'login-succeeded': () => logins.inc({ outcome: 'succeeded' }),
    'login-failed': () => logins.inc({ outcome: 'failed' }),
    'lockout-started': () => lockouts.inc(),
    'bytes-uploaded': (bytes) => uploaded.inc(bytes),
    'bytes-downloaded': (bytes) => downloaded.inc(bytes),
    'sftp-session-started': () => {
      sftpSessions.inc({ outcome: 'started' });
      sftpOpen.inc();
    },
    'sftp-session-ended': () => sftpOpen.dec(),
    'sftp-session-refused': () => sftpSessions.inc({ outcome: 'refused' }),
    'webdav-request': (method, status, seconds) => webdavRequests.observe({ method, status_class: `${Math.floor(status / 100)}xx` }, seconds),
  };
  const events = Object.keys(listeners) as (keyof ActivityEvents)[];
  for (const event of events) activity.on(event, listeners[event] as never);
  return () => {
    for (const event of events) activity.off(event, listeners[event] as never);
  };
}
