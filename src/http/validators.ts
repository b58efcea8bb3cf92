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
 * Validators compiled once a process, by schema, and each on its route's first request: a route's
 * parts are the same schema objects in every app, so another app in the process (a node beside
 * this one, a test's next app) reuses the code, and a server compiles only what it is asked for
 * instead of every route's schemas before it starts (a fifth of its start-up). Weakly held, and
 * taken out of Ajv's own cache, so that a schema nobody uses any more is not kept alive.
 */
const compiled = { body: new WeakMap<object, ValidateFunction>(), other: new WeakMap<object, ValidateFunction>() };

function compiledFor(schema: object, httpPart: string | undefined): ValidateFunction {
  const [ajv, cache] = httpPart === 'body' ? [strict, compiled.body] : [coercing, compiled.other];
  let validate = cache.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    ajv.removeSchema(schema);
    cache.set(schema, validate);
  }
  return validate;
}

/**
 * Compiles on its first call. Fastify reads `errors` after a failed validation, and passes the
 * request as the parent of the value (so that Ajv may replace the value itself) to a function
 * with `schemaEnv`, Ajv's mark, which this one carries too.
 */
function compiledOnFirstUse(schema: object, httpPart: string | undefined) {
  let validate: ValidateFunction | undefined;
  const onFirstUse = Object.assign(
    (data: unknown, parent?: Parameters<ValidateFunction>[1]) => {
      validate ??= compiledFor(schema, httpPart);
      // Fastify's context names only the parent; Ajv's code fills in the rest of it.
      const valid = validate(data, parent);
      onFirstUse.errors = validate.errors;
      return valid;
    },
    { errors: null as ValidateFunction['errors'], schemaEnv: true },
  );
  return onFirstUse;
}

export function registerValidators(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => compiledOnFirstUse(schema, httpPart));
}
