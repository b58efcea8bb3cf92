import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance } from 'fastify';

/** Fastify's own response compiler (fast-json-stringify); the app adds no shared schemas for it to resolve. */
const compile = SerializerSelector()(undefined, undefined);

/**
 * Response serializers compiled once a process, by schema, and each on its route's first answer:
 * a route's response schemas are the same objects in every app, so another app in the process (a
 * node beside this one, a test's next app) reuses the code, and a server compiles only what it is
 * asked for instead of every route's schemas before it starts (a tenth of its start-up). Weakly
 * held: a schema nobody uses any more is not kept alive.
 */
const compiled = new WeakMap<object, (document: unknown) => string>();

function compiledFor(schema: object, definition: Parameters<typeof compile>[0]): (document: unknown) => string {
  let serialize = compiled.get(schema);
  if (serialize === undefined) {
    serialize = compile(definition);
    compiled.set(schema, serialize);
  }
  return serialize;
}

export function registerSerializers(app: FastifyInstance): void {
  app.setSerializerCompiler((route) => {
    const schema = route.schema as object;
    const definition = { method: route.method, url: route.url, httpStatus: route.httpStatus ?? 'default', schema };
    let serialize: ((document: unknown) => string) | undefined;
    return (document: unknown) => {
      serialize ??= compiledFor(schema, definition);
      return serialize(document);
    };
  });
}
