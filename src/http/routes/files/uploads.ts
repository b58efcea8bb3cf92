import type { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AtriumError } from '../../../errors/atrium-error.js';
import { partEntityTag } from '../../../files/index.js';
import type { ApiInstance } from '../../fastify-types.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses } from '../../schemas.js';
import { entryBody } from './entry-body.js';
import { sessionAndPath } from './file-session.js';
import { EntryBody, flagValue, ReceivedPartBody, TokenParams, UploadWholeQuery, PathParams } from './schemas.js';
import { UPLOADS_PATH } from './transfer-urls.js';

/**
 * Routes whose body is file bytes, not JSON: in their own scope, where every content type
 * (JSON included: a `.json` file is bytes too) arrives as the raw request stream, read as it
 * comes and never buffered. Body schemas do not apply to bytes.
 */
export function uploadRoutes(app: ApiInstance, deps: RouteDeps): void {
  void app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    // The signed part URL of the upload protocol: public (the SDKs send parts without a
    // credential); the token reaches exactly one part of one upload.
    scope.put(`${UPLOADS_PATH}/:token`, {
      config: { public: true },
      schema: {
        summary: 'Receive one part of an upload, through a signed, short-lived link',
        params: TokenParams,
        response: { 200: ReceivedPartBody, ...errorResponses },
      },
    }, async (request, reply) => closingOnRefusal(reply, async () => {
      const part = await deps.files.receivePart(request.params.token, bodyOf(request), declaredLength(request.headers['content-length']));
      // As S3 answers a part: the SDKs keep the ETag and send it back when the upload ends (`etags`).
      reply.header('ETag', partEntityTag(part.sha256));
      return { part_number: part.partNumber, size: part.size, sha256: part.sha256 };
    }));

    // The whole file in one authenticated request (`curl -T file .../files/folder/`).
    for (const url of ['/files', '/files/*']) {
      scope.put(url, {
        config: { operation: 'file' },
        schema: {
          params: PathParams,
          summary: 'Upload a whole file in one request; the body is the bytes (missing folders are created unless mkdir_parents=false)',
          querystring: UploadWholeQuery,
          response: { 201: EntryBody, ...errorResponses },
        },
      }, async (request, reply) => closingOnRefusal(reply, async () => {
        const { session, path } = await sessionAndPath(request, deps, 'files');
        const { entry } = await session.write(path, bodyOf(request), {
          mkdirParents: flagValue(request.query.mkdir_parents, true),
          declaredLength: declaredLength(request.headers['content-length']),
        });
        return reply.code(201).send(entryBody(entry));
      }));
    }
  });
}

/**
 * The bytes of an upload. Fastify hands a body to the parser only when the request announces one;
 * under HTTP/2 a body may come with no Content-Length and no content type, and is then read
 * straight from the request stream (which is simply empty when there is no body).
 */
export function bodyOf(request: FastifyRequest): Readable {
  return (request.body as Readable | undefined) ?? request.raw;
}

export function declaredLength(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  const length = Number(header);
  return Number.isSafeInteger(length) ? length : undefined;
}

/**
 * A refused upload (too large, not allowed) may still have most of its body on the way, which is
 * not worth receiving: the connection is closed after the answer instead of being kept alive
 * while the client goes on sending.
 */
export async function closingOnRefusal<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // HTTP/2 has no Connection header: there the answer ends only the stream, not the connection.
    if (error instanceof AtriumError && reply.request.raw.httpVersionMajor === 1) reply.header('Connection', 'close');
    throw error;
  }
}
