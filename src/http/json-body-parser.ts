import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { errors } from '../errors/catalogue.js';

/**
 * Request bodies are JSON objects (contract 1.1). An empty body counts as `{}` (clients send
 * DELETE with a JSON content type and nothing else); invalid JSON, or JSON that is not an object,
 * is `bad-request/invalid-body`. Prototype-poisoning keys are dropped, not obeyed.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    let parsed: unknown;
    try {
      parsed = secureJsonParse.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
    } catch {
      return done(errors.invalidBody('The request body is not valid JSON.'));
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return done(errors.invalidBody());
    done(null, parsed);
  });
}
