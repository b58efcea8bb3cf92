import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { AtriumError, titleForType, type ErrorDetails } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import { statusForType } from './error-status.js';
import type { BrandHeaders } from './brand-headers.js';
import { headerHint } from './header-hints.js';
import { validationToApiError } from './validation-errors.js';

/**
 * The one place that writes error responses (contract 1.4). Anything that is not an AtriumError or
 * a known framework error becomes a generic 500: the body never carries a stack or SQL, which
 * go to the log instead.
 */
export function registerErrorRendering(app: FastifyInstance, headers: BrandHeaders): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError === undefined) {
      request.log.error({ err: error }, 'unexpected error');
      return sendError(reply, request, headers, 'internal-server-error', 500, 'An internal error occurred.', {});
    }
    return sendError(reply, request, headers, apiError.type, statusForType(apiError.type), apiError.message, apiError.extra);
  });

  app.setNotFoundHandler((request, reply) => {
    const error = errors.notFound(`No resource at ${request.method} ${request.url.split('?')[0]}.`);
    return sendError(reply, request, headers, error.type, statusForType(error.type), error.message, {});
  });
}

/** Writes an AtriumError as the contract's response, where the error handler does not run (router errors). */
export function sendApiError(reply: FastifyReply, request: FastifyRequest, headers: BrandHeaders, error: AtriumError) {
  reply.header('X-Request-Id', request.id);
  return sendError(reply, request, headers, error.type, statusForType(error.type), error.message, error.extra);
}

function toApiError(error: FastifyError, request: FastifyRequest): AtriumError | undefined {
  if (error instanceof AtriumError) return error;
  if (isDatabaseUnavailable(error)) return errors.serviceUnavailable();
  if (error.validation !== undefined) return validationToApiError(error.validation, error.validationContext);
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType(request.headers['content-type']);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.invalidBody('The body is not as long as its Content-Length header says.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.bodyTooLarge();
  }
  // Other framework errors with a client status (a malformed URL, for instance) are the client's.
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new AtriumError('bad-request/request-params-invalid', error.message);
  }
  return undefined;
}

function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  headers: BrandHeaders,
  type: string,
  status: number,
  message: string,
  extra: ErrorDetails,
) {
  for (const name of headers.errorClass) reply.header(name, type);
  if (extra.retryAfterSeconds !== undefined) reply.header('Retry-After', String(extra.retryAfterSeconds));
  const hint = headerHint(extra.header, headers);
  const body: Record<string, unknown> = {
    error: hint === undefined ? message : `${message} ${hint}`,
    'http-code': status,
    instance: request.id,
    title: type === 'internal-server-error' ? 'Internal Server Error' : titleForType(type),
    type,
  };
  if (extra.modelErrors !== undefined) {
    body.model_errors = extra.modelErrors;
    body['model-errors'] = extra.modelErrors;
  }
  if (extra.data !== undefined) body.data = extra.data;
  return reply.code(status).type('application/json').serializer(JSON.stringify).send(body);
}
