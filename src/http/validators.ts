import { Ajv, type ValidateFunction } from 'ajv';
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
const coercing = addFormats(new Ajv({ ...COMMON, coerceTypes: 'array' }));
const strict = addFormats(new Ajv({ ...COMMON, coerceTypes: false }));

/**
 * Validators compiled once a process, by schema: a route's parts are the same schema objects in
 * every app, so another app in the process (a node beside this one, a test's next app) reuses
 * the code instead of compiling it again, which is most of an app's start. Weakly held, and taken
 * out of Ajv's own cache, so that a schema nobody uses any more is not kept alive.
 */
const compiled = { body: new WeakMap<object, ValidateFunction>(), other: new WeakMap<object, ValidateFunction>() };

export function registerValidators(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const [ajv, cache] = httpPart === 'body' ? [strict, compiled.body] : [coercing, compiled.other];
    let validate = cache.get(schema);
    if (validate === undefined) {
      validate = ajv.compile(schema);
      ajv.removeSchema(schema);
      cache.set(schema, validate);
    }
    return validate;
  });
}
