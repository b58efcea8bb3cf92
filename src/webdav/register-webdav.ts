import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import type { FileOperations } from '../files/index.js';
import type { PasswordDoor } from '../identity/index.js';
import { activity } from '../lib/activity.js';
import type { Clock } from '../lib/time.js';
import { DavAuthenticator } from './dav-auth.js';
import { davErrorOf } from './dav-error.js';
import { DAV_ROOT, davContext } from './dav-request.js';
import { ALLOWED_METHODS } from './methods/allowed.js';
import { DAV_METHODS } from './methods/index.js';
import { options } from './methods/options.js';
import { escapeXml, xmlDeclaration } from './xml/multistatus.js';

export interface WebdavDeps {
  db: Db;
  clock: Clock;
  files: FileOperations;
  /** The core's one sign-in by password, shared with SFTP. */
  passwords: PasswordDoor;
}

/** HTTP methods WebDAV adds to Fastify's router, and whether they carry a body. */
const EXTRA_METHODS: ReadonlyArray<[string, boolean]> = [
  ['PROPFIND', true], ['PROPPATCH', true], ['MKCOL', true], ['COPY', false], ['MOVE', false], ['LOCK', true], ['UNLOCK', false],
];
/** Other methods a client may send: answered 405 with the Allow header rather than 404. */
const REFUSED_METHODS = ['POST', 'PATCH', 'TRACE'];

/**
 * WebDAV (RFC 4918, class 1 and 2) at /dav/ on the API's listener, in a plugin of its own: its
 * own authentication (HTTP Basic), body handling and error form, none of it leaking into the REST
 * API. Every method translates and calls the caller's FileSession, which decides as it does for
 * REST; nothing here grants or refuses by itself.
 */
export async function registerWebdav(app: FastifyInstance, deps: WebdavDeps): Promise<void> {
  for (const [method, hasBody] of EXTRA_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody });
  }
  const authenticator = new DavAuthenticator(deps.db, deps.clock, deps.passwords);

  await app.register(async (dav) => {
    // Bodies reach the methods unread: PUT streams its bytes to storage, XML bodies are read with a limit (xml/body.ts).
    dav.removeAllContentTypeParsers();
    dav.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    dav.setErrorHandler(async (error, request, reply) => renderFailure(error, request, reply));
    // Counted for /metrics by whoever listens (http/metrics/), after the answer is sent.
    dav.addHook('onResponse', (request, reply, done) => {
      activity.emit('webdav-request', request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method === 'OPTIONS') return options(reply);
      const method = DAV_METHODS[request.method];
      if (method === undefined) {
        return reply.code(405).header('Allow', ALLOWED_METHODS.join(', ')).type('text/plain; charset=utf-8').send(`Method ${request.method} is not allowed here.`);
      }
      const caller = await authenticator.callerOf(request);
      const ctx = await davContext(request, reply, caller, deps);
      await method(ctx);
      return reply;
    };
    const methods = [...ALLOWED_METHODS, ...REFUSED_METHODS];
    for (const url of [DAV_ROOT, `${DAV_ROOT}/*`]) {
      dav.route({ method: methods, url, exposeHeadRoute: false, schema: { hide: true }, handler: handle });
    }
  });
}

/** A failure in WebDAV's form: its status, the RFC 4918 precondition element when there is one, else the message as text. */
function renderFailure(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const failure = davErrorOf(error);
  // 507 refuses what a client asked to store past a cap: the client's doing, not a server failure.
  if (failure.status >= 500 && failure.status !== 507) request.log.error({ err: error }, 'WebDAV request failed');
  reply.code(failure.status);
  if (failure.status === 401) reply.header('WWW-Authenticate', 'Basic realm="Atrium", charset="UTF-8"');
  if (failure.retryAfterSeconds !== undefined) reply.header('Retry-After', String(failure.retryAfterSeconds));
  // A refused upload may still have most of its body on the way: close rather than read it all.
  if ((request.method === 'PUT' || failure.status === 413) && request.raw.httpVersionMajor === 1) reply.header('Connection', 'close');
  if (failure.precondition !== undefined) {
    const hrefs = (failure.hrefs ?? []).map((href) => `<D:href>${escapeXml(href)}</D:href>`).join('');
    const element = hrefs === '' ? `<D:${failure.precondition}/>` : `<D:${failure.precondition}>${hrefs}</D:${failure.precondition}>`;
    return reply.type('application/xml; charset=utf-8').send(`${xmlDeclaration}<D:error xmlns:D="DAV:">${element}</D:error>`);
  }
  return reply.type('text/plain; charset=utf-8').send(`${failure.message}\n`);
}
