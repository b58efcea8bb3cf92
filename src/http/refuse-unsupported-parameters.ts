import type { FastifyInstance, preValidationHookHandler, RouteOptions } from 'fastify';
import { errors } from '../errors/catalogue.js';
import { SDK_PARAMETERS_NOT_SUPPORTED } from './sdk-parameters-not-supported.js';

/**
 * Every write route with SDK parameters Atrium does not honour gets one check, before its body
 * schema would drop unknown properties: a body naming any of them is refused, all of them named,
 * so a client never believes a setting was stored that was not. Properties that
 * are no SDK parameter at all (the read-only attributes `save()` sends back, a newer SDK's
 * attributes) are still dropped by the schema, so round-tripping a found object keeps working.
 */
export function refuseUnsupportedParameters(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const refused = SDK_PARAMETERS_NOT_SUPPORTED[`${method === 'PUT' ? 'PATCH' : method} ${route.routePath}`];
      if (refused === undefined) continue;
      route.preValidation = [...hooksOf(route.preValidation), refusing(new Set(refused))];
      return;
    }
  });
}

function hooksOf(hooks: RouteOptions['preValidation']): preValidationHookHandler[] {
  if (hooks === undefined) return [];
  return (Array.isArray(hooks) ? hooks : [hooks]) as preValidationHookHandler[];
}

function refusing(refused: ReadonlySet<string>): preValidationHookHandler {
  return (request, _reply, done) => {
    const body = request.body;
    if (body === null || typeof body !== 'object') return done();
    const named = Object.keys(body).filter((name) => refused.has(name));
    if (named.length === 0) return done();
    done(errors.paramsInvalid(Object.fromEntries(named.map((name) => [name, ['is not supported by Atrium']]))));
  };
}
