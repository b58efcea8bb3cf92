import { statusForType } from './status.js';

export type ModelErrors = Record<string, string[]>;

/**
 * An error the API answers with the contract's body (section 1.4). Services throw these;
 * the one error renderer (http/plugins/error-rendering.ts) writes them.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly type: string,
    message: string,
    readonly extra: { modelErrors?: ModelErrors; data?: Record<string, unknown>; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = statusForType(type);
  }
}

/** `title` is the specific part of `type` in Title Case (`not-found` alone gives "Not Found"). */
export function titleForType(type: string): string {
  const specific = type.includes('/') ? type.slice(type.indexOf('/') + 1) : type;
  return specific
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
