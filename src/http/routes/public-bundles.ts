import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  deleteFromLink, enterLink, type LinkDeps, type LinkEntry, linkEntries, linkFacts, linkForVisitor, readLinkFile, startVisit, uploadToLink, zipOfLink,
} from '../../bundles/index.js';
import { errors } from '../../errors/catalogue.js';
import { isoTime } from '../../lib/time.js';
import { PUBLIC_API_ROOT } from '../api-paths.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses } from '../schemas.js';
import { contentDisposition } from './files/file-bytes.js';
import { rangeRequestOf } from './files/range-header.js';
import { bodyOf, closingOnRefusal, declaredLength } from './files/uploads.js';

// The public share-link API (docs/sharing.md#visiting-a-link): what a link's page calls for its
// visitors, who have no account and send no credential. The visit cookie is its only memory of
// them. Every decision is the bundles feature's and the link's file session's; this translates.

/** Below PUBLIC_API_ROOT. */
const LINKS = '/bundles';
const VISIT_COOKIE = 'atrium_link';
// Visit tokens are base64url; anything else in the cookie is not ours.
const TOKEN_VALUE = /^[A-Za-z0-9_-]{1,200}$/;

const CodeParams = Type.Object({ code: Type.String({ description: 'the link\'s code (case-sensitive)' }) });
const FileParams = Type.Object({ code: Type.String(), '*': Type.String() });
const PathQuery = Type.Object({ path: Type.Optional(Type.String({ description: 'a path relative to the link; empty or absent for its top' })) });
const FileQuery = Type.Object({ disposition: Type.Optional(Type.Union([Type.Literal('inline'), Type.Literal('attachment')])) });

const LinkBody = Type.Object({
  code: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  permissions: Type.String({ description: 'read, write, read_write, full or preview_only' }),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  password_protected: Type.Boolean(),
  require_registration: Type.Boolean(),
  unlocked: Type.Boolean({ description: 'this browser has passed the password and registration, or the link asks neither' }),
  can: Type.Object({ list: Type.Boolean(), download: Type.Boolean(), preview: Type.Boolean(), upload: Type.Boolean(), delete: Type.Boolean() }),
  dont_allow_folders_in_uploads: Type.Boolean(),
  max_upload_bytes: Type.Number(),
});

const VisitBody = Type.Object({
  password: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  company: Type.Optional(Type.String()),
});

const EntryBody = Type.Object({
  path: Type.String(), name: Type.String(), type: Type.Union([Type.Literal('file'), Type.Literal('directory')]), size: Type.Union([Type.Number(), Type.Null()]),
  modified_at: Type.String(), mime_type: Type.Union([Type.String(), Type.Null()]), previewable: Type.Boolean(),
});

const UploadBody = Type.Object({ path: Type.String(), name: Type.String(), size: Type.Number() });

function visitToken(request: FastifyRequest): string | undefined {
  if (request.headers.cookie === undefined) return undefined;
  const value = parseCookie(request.headers.cookie)[VISIT_COOKIE];
  return value !== undefined && TOKEN_VALUE.test(value) ? value : undefined;
}

/** The visit cookie: this link's API path only, never sent to another site or read by script. */
function setVisitCookie(reply: FastifyReply, request: FastifyRequest, code: string, token: string): void {
  reply.header('set-cookie', stringifySetCookie({
    name: VISIT_COOKIE, value: token, path: `${PUBLIC_API_ROOT}${LINKS}/${code}`, httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https',
  }));
}

/** Percent-decodes a path as the client spelled it; what is no UTF-8 (`%c0%ae`, an overlong `.`) names nothing. */
function decodedPath(spelled: string): string {
  try {
    return decodeURIComponent(spelled);
  } catch {
    throw errors.invalidPath('The path is not valid percent-encoded UTF-8.');
  }
}

/** The path after `/files/` in the URL as the client sent it, percent-decoded once (`%2F` is a `/` in the path, and `..` stays for the feature to refuse). */
function filePath(request: FastifyRequest, code: string): string {
  const url = request.url;
  const query = url.indexOf('?');
  const raw = query === -1 ? url : url.slice(0, query);
  const marker = `${LINKS}/`;
  const afterCode = raw.indexOf('/files/', raw.indexOf(marker) + marker.length);
  // The route matched, so the segment is there; anything else is a routing bug.
  if (afterCode === -1) throw new Error(`public file route matched ${raw} for ${code}`);
  return decodedPath(raw.slice(afterCode + '/files/'.length));
}

/**
 * `?path=`, as plain text. The query parser (URLSearchParams) reads bytes that are no UTF-8 as
 * U+FFFD and keeps a `%` it cannot decode as written, which would make `%c0%ae%c0%ae` a name (four
 * replacement characters) where the same spelling in a file's URL is refused: it is refused here
 * too, so a path means the same on every endpoint.
 */
function queryPath(request: FastifyRequest, parsed: string | undefined): string {
  const query = request.url.indexOf('?');
  for (const pair of query === -1 ? [] : request.url.slice(query + 1).split('&')) {
    const equals = pair.indexOf('=');
    if (equals !== -1 && pair.slice(0, equals) === 'path') decodedPath(pair.slice(equals + 1).replaceAll('+', ' '));
  }
  return parsed ?? '';
}

function entryBody(entry: LinkEntry) {
  return {
    path: entry.path, name: entry.name, type: entry.type, size: entry.size, modified_at: isoTime(entry.modifiedAt), mime_type: entry.mimeType, previewable: entry.previewable,
  };
}

export function publicBundleRoutes(app: ApiInstance, deps: RouteDeps): void {
  const linkDeps = (): LinkDeps => ({ db: deps.db, now: deps.clock.now(), files: deps.files });
  /** The visitor of a link for its files, with the cookie of a visit made by this request. */
  const visitorOf = async (request: FastifyRequest, reply: FastifyReply, code: string, at: LinkDeps) => {
    const visitor = await enterLink(at, code, visitToken(request), { ip: request.ip });
    if (visitor.newToken !== undefined) setVisitCookie(reply, request, code, visitor.newToken);
    return visitor;
  };

  app.get(`${LINKS}/:code`, {
    config: { public: true },
    schema: {
      summary: 'A share link as its page shows it: what it is, what its visitors may do, and whether this browser may go on',
      params: CodeParams,
      response: { 200: LinkBody, ...errorResponses },
    },
  }, async (request) => {
    const { found, unlocked } = await linkForVisitor(deps.db, request.params.code, visitToken(request), deps.clock.now());
    const facts = linkFacts(found, unlocked, deps.files.maxUploadBytes);
    return {
      code: facts.code, description: facts.description, permissions: facts.permissions, expires_at: facts.expiresAt === null ? null : isoTime(facts.expiresAt),
      password_protected: facts.passwordProtected, require_registration: facts.requireRegistration, unlocked: facts.unlocked, can: facts.can,
      dont_allow_folders_in_uploads: facts.dontAllowFoldersInUploads, max_upload_bytes: facts.maxUploadBytes,
    };
  });

  app.post(`${LINKS}/:code/visits`, {
    config: { public: true },
    schema: {
      summary: 'Visit a share link: its password and the visitor\'s registration when it asks for them; sets the visit cookie',
      params: CodeParams,
      body: Type.Optional(VisitBody),
      response: { 201: Type.Object({ unlocked: Type.Boolean() }), ...errorResponses },
    },
  }, async (request, reply) => {
    const { token } = await startVisit(linkDeps(), request.params.code, request.body ?? {}, { ip: request.ip });
    setVisitCookie(reply, request, request.params.code, token);
    return reply.code(201).send({ unlocked: true });
  });

  app.get(`${LINKS}/:code/entries`, {
    config: { public: true },
    schema: {
      summary: 'The folders and files at a path of a share link (folders first, then by name); at its top, what it shares',
      params: CodeParams,
      querystring: PathQuery,
      response: { 200: Type.Object({ entries: Type.Array(EntryBody) }), ...errorResponses },
    },
  }, async (request, reply) => {
    const at = linkDeps();
    const visitor = await visitorOf(request, reply, request.params.code, at);
    return { entries: (await linkEntries(visitor, queryPath(request, request.query.path))).map(entryBody) };
  });

  app.get(`${LINKS}/:code/files/*`, {
    config: { public: true },
    schema: {
      summary: 'A file of a share link: shown (disposition=inline, for pictures, PDF, text, sound and film) or downloaded; Range supported',
      params: FileParams,
      querystring: FileQuery,
      response: { 200: Type.String({ format: 'binary' }), 206: Type.String({ format: 'binary' }), ...errorResponses },
    },
  }, async (request, reply) => {
    const at = linkDeps();
    const code = request.params.code;
    const visitor = await visitorOf(request, reply, code, at);
    const headersOnly = request.method === 'HEAD';
    const served = await readLinkFile(at, visitor, filePath(request, code), rangeRequestOf(request.headers.range), request.query.disposition ?? 'attachment', headersOnly);
    const size = served.entry.size ?? 0;
    reply
      .header('Content-Type', served.contentType)
      .header('Content-Disposition', contentDisposition(served.entry.name, served.disposition))
      // Bytes anyone uploaded, on Atrium's origin: never sniffed, never run with its rights (as WebDAV's GET).
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', 'sandbox')
      .header('Accept-Ranges', 'bytes')
      .header('Cache-Control', 'private, no-store')
      .header('Last-Modified', new Date(served.entry.modifiedAt).toUTCString());
    if (served.range === undefined) reply.code(200).header('Content-Length', String(size));
    else reply.code(206).header('Content-Range', `bytes ${served.range.start}-${served.range.end}/${size}`).header('Content-Length', String(served.range.end - served.range.start + 1));
    // HEAD: Fastify answers the headers of this GET and drops the stream (empty: nothing was read).
    return (reply as FastifyReply).send(served.stream);
  });

  app.get(`${LINKS}/:code/zip`, {
    config: { public: true },
    schema: {
      summary: 'A folder of a share link, or everything it shares, as one ZIP (streamed, ZIP64 when needed)',
      params: CodeParams,
      querystring: PathQuery,
      response: { 200: Type.String({ format: 'binary' }), ...errorResponses },
    },
  }, async (request, reply) => {
    const at = linkDeps();
    const visitor = await visitorOf(request, reply, request.params.code, at);
    const zip = await zipOfLink(at, visitor, queryPath(request, request.query.path));
    return (reply as FastifyReply)
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', contentDisposition(`${zip.name}.zip`))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .send(zip.stream);
  });

  app.delete(`${LINKS}/:code/files/*`, {
    config: { public: true },
    schema: {
      summary: 'Delete a file or folder of a share link (links with full permissions only)',
      params: FileParams,
      response: { 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    const at = linkDeps();
    const code = request.params.code;
    const visitor = await visitorOf(request, reply, code, at);
    await deleteFromLink(at, visitor, filePath(request, code));
    return reply.code(204).send(null);
  });

  // Uploads: the raw request stream, never buffered, in a scope of their own (as the REST PUT's).
  void app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.put(`${LINKS}/:code/files/*`, {
      config: { public: true },
      schema: {
        summary: 'Upload a file into a share link\'s folder (the body is the bytes); a taken name gets " (1)" unless the link is full',
        params: FileParams,
        response: { 201: UploadBody, ...errorResponses },
      },
    }, async (request, reply) => closingOnRefusal(reply, async () => {
      const at = linkDeps();
      const code = request.params.code;
      const visitor = await visitorOf(request, reply, code, at);
      const stored = await uploadToLink(at, visitor, filePath(request, code), bodyOf(request), declaredLength(request.headers['content-length']), { ip: request.ip });
      return reply.code(201).send(stored);
    }));
  });
}
