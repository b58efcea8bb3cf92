const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE',
  // PostgreSQL: admin shutdown, crash shutdown, cannot connect now, connection failures.
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006',
]);

/**
 * True when an error means the database cannot be reached (as opposed to a query failing), so
 * the request is answered `service-unavailable` instead of a generic 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
  if (typeof message !== 'string') return false;
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error|Query read timeout|Connection terminated due to connection timeout/i.test(message);
}
