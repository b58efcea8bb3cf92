import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { AtriumError, ModelErrors } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';

/**
 * Turns schema validation failures into the contract's `bad-request/...` errors with
 * `model_errors` keyed by field: `request-params-required` when a required field is missing,
 * `request-params-invalid` otherwise, `invalid-body` when the body is not an object at all.
 */
export function validationToApiError(failures: FastifySchemaValidationError[], context: string | undefined): AtriumError {
  const missing: ModelErrors = {};
  const invalid: ModelErrors = {};
  for (const failure of failures) {
    const field = fieldName(failure);
    if (field === '' && context === 'body' && failure.keyword === 'type') return errors.invalidBody();
    if (failure.keyword === 'required') {
      const name = String((failure.params as { missingProperty?: unknown }).missingProperty ?? field);
      (missing[name] ??= []).push('is required');
    } else {
      (invalid[field || context || 'request'] ??= []).push(failure.message ?? 'is invalid');
    }
  }
  return Object.keys(missing).length > 0 ? errors.paramsRequired(missing) : errors.paramsInvalid(invalid);
}

/** `/filter/username` becomes `filter[username]`, as the client wrote it. */
function fieldName(failure: FastifySchemaValidationError): string {
  const parts = failure.instancePath.split('/').filter((p) => p !== '');
  if (parts.length === 0) return '';
  return parts[0] + parts.slice(1).map((p) => `[${p}]`).join('');
}
