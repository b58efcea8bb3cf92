import { familyOf, type ErrorFamily } from '../errors/atrium-error.js';

const STATUS_BY_FAMILY: Readonly<Record<ErrorFamily, number>> = {
  'bad-request': 400,
  'not-authenticated': 401,
  'not-authorized': 403,
  'not-found': 404,
  'processing-failure': 422,
  'rate-limited': 429,
  'service-unavailable': 503,
  'internal-server-error': 500,
};

/** The HTTP status of an error type is decided by its family alone (contract 1.4). */
export function statusForType(type: string): number {
  return STATUS_BY_FAMILY[familyOf(type)];
}
