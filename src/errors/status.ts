const STATUS_BY_FAMILY: Record<string, number> = {
  'bad-request': 400,
  'not-authenticated': 401,
  'not-authorized': 403,
  'not-found': 404,
  'processing-failure': 422,
  'rate-limited': 429,
  'service-unavailable': 503,
  'internal-server-error': 500,
};

/** The status of an error type is decided by its family alone (contract 1.4). */
export function statusForType(type: string): number {
  const family = type.split('/', 1)[0] ?? type;
  const status = STATUS_BY_FAMILY[family];
  if (status === undefined) throw new Error(`error type "${type}" has no known family`);
  return status;
}
