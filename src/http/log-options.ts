import os from 'node:os';
import type { pino } from 'pino';
import type { Config } from '../config/settings.js';
import type { BrandHeaders } from './brand-headers.js';
import { standardOutputLines } from './log-lines.js';

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

/** Where the server's log lines go: standard output, a turn's lines written together (log-lines.ts). */
export function logDestination(): pino.DestinationStream {
  return standardOutputLines();
}
