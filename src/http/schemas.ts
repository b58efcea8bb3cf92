import { Type } from 'typebox';
import { MAX_RECORD_ID } from '../lib/record-id.js';

/** The error body of contract 1.4, for the OpenAPI document. */
export const ErrorBody = Type.Object({
  error: Type.String(),
  'http-code': Type.Integer(),
  instance: Type.String(),
  title: Type.String(),
  type: Type.String(),
  model_errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  'model-errors': Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody } as const;

/**
 * An id in a path, a query or a body: a whole number up to the database's bound (lib/record-id.ts),
 * so a larger one is `bad-request/request-params-invalid` on every route and database alike.
 * `minimum: 1` where 0 names nothing; 0 where it means Workspace 0 or "the caller".
 */
export function RecordId(options: { minimum?: 0 | 1; description?: string } = {}) {
  return Type.Integer({ minimum: options.minimum ?? 0, maximum: MAX_RECORD_ID, ...(options.description === undefined ? {} : { description: options.description }) });
}

/** Ids in paths; `.json` has already been removed. */
export const IdParams = Type.Object({ id: RecordId() });
