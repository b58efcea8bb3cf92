import { Ajv } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS; under ESM its function arrives as `default` (or `default.default`).
type AddFormats = (ajv: Ajv) => Ajv;
const formatsModule = ajvFormats as unknown as { default: AddFormats | { default: AddFormats } };
const addFormats: AddFormats = typeof formatsModule.default === 'function' ? formatsModule.default : formatsModule.default.default;

const COMMON = { useDefaults: true, removeAdditional: true, allErrors: false, strict: false } as const;

/**
 * Query strings, path parameters and headers arrive as text, so their values are coerced to the
 * schema's types (`per_page=10` is an integer). JSON bodies already carry types: a body field of
 * the wrong type is refused (`bad-request/request-params-invalid`), never silently converted.
 */
export function registerValidators(app: FastifyInstance): void {
  const coercing = addFormats(new Ajv({ ...COMMON, coerceTypes: 'array' }));
  const strict = addFormats(new Ajv({ ...COMMON, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
