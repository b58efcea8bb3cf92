import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config/settings.js';
import type { BrandHeaders } from './brand-headers.js';

/**
 * Structured JSON logs. Credential headers are redacted wherever a request's headers reach a
 * log line; Fastify's default request serializer does not log headers at all, this is the
 * second guard.
 */
export function logOptions(level: Config['logLevel'], headers: BrandHeaders): FastifyServerOptions['logger'] {
  const secretHeaders = [...headers.apiKey, ...headers.session, ...headers.reauthentication, 'authorization', 'cookie'];
  const paths = secretHeaders.flatMap((name) => {
    const lower = name.toLowerCase();
    return [`req.headers["${lower}"]`, `headers["${lower}"]`, `request.headers["${lower}"]`];
  });
  return { level, redact: { paths, censor: '[redacted]' } };
}
