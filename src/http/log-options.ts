import os from 'node:os';
import { pino } from 'pino';
import type { Config } from '../config/settings.js';
import type { BrandHeaders } from './brand-headers.js';

/**
 * Structured JSON logs. Credential headers are redacted wherever a request's headers reach a
 * log line; Fastify's default request serializer does not log headers at all, this is the
 * second guard.
 */
export function logOptions(level: Config['logLevel'], headers: BrandHeaders, fields?: Record<string, unknown>): pino.LoggerOptions {
  const secretHeaders = [...headers.apiKey, ...headers.session, ...headers.reauthentication, 'authorization', 'cookie'];
  const paths = secretHeaders.flatMap((name) => {
    const lower = name.toLowerCase();
    return [`req.headers["${lower}"]`, `headers["${lower}"]`, `request.headers["${lower}"]`];
  });
  // Extra fields (a worker's number) join pino's own on every line.
  const base = fields === undefined ? {} : { base: { pid: process.pid, hostname: os.hostname(), ...fields } };
  return { level, redact: { paths, censor: '[redacted]' }, ...base };
}

/**
 * Where the server's log lines go: standard output, written asynchronously. pino's default writes
 * each line with its own blocking system call, which with the access log on was a sixth of a
 * request's CPU; here a line is queued and written at once when no write is under way, and the
 * lines that arrive while one is under way go out together in the next. pino flushes what is
 * queued when the process exits. Each write stays within 4 KiB, what a pipe takes whole, so the
 * lines of several processes sharing standard output (ATRIUM_WORKERS) never interleave mid-line.
 */
export function logDestination(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false, maxWrite: 4096 });
}
