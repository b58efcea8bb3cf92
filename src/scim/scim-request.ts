import type { FastifyRequest } from 'fastify';
import { parseRecordId } from '../lib/record-id.js';

/**
 * The query of a SCIM request, read as plain `name=value` pairs: the REST API's query parser reads
 * brackets as nested keys, which SCIM filters (`emails[type eq "work"]`) must not be.
 */
export function scimQuery(request: FastifyRequest): Record<string, string> {
  const params = new URL(request.url, 'http://localhost').searchParams;
  const out: Record<string, string> = {};
  for (const [key, value] of params) out[key] ??= value;
  return out;
}

/** The absolute base of the SCIM endpoints as this request reached them, for `meta.location`. */
export function scimBase(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/scim/v2`;
}

/**
 * A resource id in a path: an Atrium id, read by the rule every id is read by. Anything else
 * (letters, a sign, a number beyond any record's) names no resource: 404, as an unknown id is.
 */
export function resourceId(raw: string): number | undefined {
  return parseRecordId(raw);
}
