import { Counter, type Registry } from 'prom-client';
import { activity, type ActivityEvents } from '../../lib/activity.js';

/**
 * Counters for what the features report on `activity` (lib/activity.ts): sign-ins, lockouts and
 * bytes moved. Answers the function that stops listening, for when the app closes.
 */
export function registerActivityCounters(registry: Registry): () => void {
  const logins = new Counter({ name: 'atrium_logins_total', help: 'Password sign-ins by outcome.', labelNames: ['outcome'] as const, registers: [registry] });
  // Both outcomes are shown from the start, so a rate over them works before the first failure.
  for (const outcome of ['succeeded', 'failed']) logins.inc({ outcome }, 0);
  const lockouts = new Counter({ name: 'atrium_lockouts_total', help: 'Usernames locked out after too many failed sign-ins.', registers: [registry] });
  const uploaded = new Counter({ name: 'atrium_uploaded_bytes_total', help: 'Bytes of file contents committed by uploads.', registers: [registry] });
  const downloaded = new Counter({ name: 'atrium_downloaded_bytes_total', help: 'Bytes of file contents read out by downloads.', registers: [registry] });

  const listeners: { [E in keyof ActivityEvents]: (...args: ActivityEvents[E]) => void } = {
    'login-succeeded': () => logins.inc({ outcome: 'succeeded' }),
    'login-failed': () => logins.inc({ outcome: 'failed' }),
    'lockout-started': () => lockouts.inc(),
    'bytes-uploaded': (bytes) => uploaded.inc(bytes),
    'bytes-downloaded': (bytes) => downloaded.inc(bytes),
  };
  const events = Object.keys(listeners) as (keyof ActivityEvents)[];
  for (const event of events) activity.on(event, listeners[event] as never);
  return () => {
    for (const event of events) activity.off(event, listeners[event] as never);
  };
}
