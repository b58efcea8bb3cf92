import { Type } from 'typebox';

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

/** Ids in paths; `.json` has already been removed. */
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }) });
