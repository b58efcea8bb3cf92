import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AtriumError } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import type { BrandHeaders } from './brand-headers.js';
import { sendApiError } from './error-rendering.js';

/**
 * Errors the router raises before any route runs (Fastify's `frameworkErrors`), answered in the
 * contract's form like any other bad input: a URL that is not valid percent-encoded UTF-8
 * (`/folders/%C3`, a file path sent half-encoded) is `bad-request/invalid-path`.
 */
export function frameworkErrorsFor(headers: BrandHeaders) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const apiError = error.code === 'FST_ERR_BAD_URL'
      ? errors.invalidPath('The URL is not valid percent-encoded UTF-8.')
      : new AtriumError('bad-request/request-params-invalid', error.message);
    void sendApiError(reply, request, headers, apiError);
  };
}
