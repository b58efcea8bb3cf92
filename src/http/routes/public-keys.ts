import { Type } from 'typebox';
import {
  createPublicKey, deletePublicKeyAs, findPublicKeyAs, listPublicKeysAs, openSshLine, renamePublicKeyAs, type PublicKey,
} from '../../identity/index.js';
import { isoTime } from '../../lib/time.js';
import { callOf, confirmIdentity } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import { asksForReauthentication } from '../openapi/route-markers.js';
import { idPageQuery, paginationQuery, readPage, sendPage } from '../pagination.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams, RecordId } from '../schemas.js';
import { UPDATE_METHODS } from '../update-methods.js';
import { definedOnly } from '../../lib/defined-only.js';
import { type ListParameterSpec, listParameterQuery, readListParameters, timeRangeOf } from '../list-parameters.js';

/** GET /public_keys's list parameters, as the Files.com SDKs document them: filters on `created_at`, no sort. */
const PUBLIC_KEY_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'public keys',
  sortable: [],
  equals: { created_at: 'time' },
  prefix: [],
  ranges: { created_at: 'time' },
  notOffered: {},
};

const UserId = RecordId({ description: '0 or absent: the caller' });
const Title = Type.String({ minLength: 1, maxLength: 255 });

/** Files.com's PublicKey; `public_key` (the OpenSSH line) is Atrium's addition, public anyway. */
const PublicKeyBody = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  created_at: Type.String(),
  fingerprint: Type.String({ description: 'MD5 of the key, colon hex' }),
  fingerprint_sha256: Type.String({ description: 'SHA-256 of the key, unpadded base64 (ssh-keygen -l prints it after SHA256:)' }),
  last_login_at: Type.Union([Type.String(), Type.Null()], { description: 'Last SFTP sign-in with this key' }),
  username: Type.String(),
  user_id: Type.Integer(),
  public_key: Type.String({ description: 'The key as one OpenSSH line' }),
});
const CreatedPublicKeyBody = Type.Object({
  ...PublicKeyBody.properties,
  status: Type.Optional(Type.Literal('complete', { description: 'Only when the pair was generated' })),
  generated_private_key: Type.Optional(Type.String({ description: 'Only when the pair was generated: shown once, never stored' })),
  generated_public_key: Type.Optional(Type.String({ description: 'Only when the pair was generated' })),
});

function publicKeyBody(key: PublicKey) {
  return {
    id: key.id,
    title: key.title,
    created_at: isoTime(key.createdAt),
    fingerprint: key.fingerprintMd5,
    fingerprint_sha256: key.fingerprintSha256,
    last_login_at: isoTime(key.lastLoginAt),
    username: key.username,
    user_id: key.userId,
    public_key: openSshLine(key.algorithm, key.keyBlob, key.comment),
  };
}

const NoContent = { 204: Type.Null({ description: 'No content' }) };

/**
 * SSH public keys for SFTP sign-in (Files.com's PublicKey, docs/sftp.md). Adding and deleting a
 * key asks a session for its password again, as for API keys: a key is a credential.
 */
export function publicKeyRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/public_keys', {
    schema: {
      summary: 'List the SSH public keys the caller may see in the request context',
      description: 'Filters as the Files.com SDKs send them: `filter[created_at]=` (within that second), `filter_gt[created_at]=` and the other bounds. '
        + 'Any other field is refused, never ignored.',
      querystring: Type.Object({ ...paginationQuery, ...listParameterQuery(PUBLIC_KEY_LIST_PARAMETERS), user_id: Type.Optional(UserId) }),
      response: { 200: Type.Array(PublicKeyBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const page = readPage<number>('public_keys', request.query, 'id');
    const createdAt = timeRangeOf(readListParameters(PUBLIC_KEY_LIST_PARAMETERS, request.query), 'created_at');
    const keys = await listPublicKeysAs(callOf(request, deps), definedOnly({ userId: request.query.user_id, createdAt }), idPageQuery(page));
    return sendPage(reply, deps.headers, 'public_keys', keys, page.limit, (k) => k.id).map(publicKeyBody);
  });

  app.post('/public_keys', {
    schema: {
      ...asksForReauthentication,
      summary: 'Add an SSH public key, or generate a key pair whose private key is in the answer and never again',
      body: Type.Object({
        title: Title,
        user_id: Type.Optional(UserId),
        public_key: Type.Optional(Type.String({ maxLength: 65_536, description: 'One OpenSSH public key line (or RFC 4716 / PEM)' })),
        generate_keypair: Type.Optional(Type.Boolean()),
        generate_private_key_password: Type.Optional(Type.String({ maxLength: 1024 })),
        generate_algorithm: Type.Optional(Type.String({ maxLength: 32, description: 'rsa (default), ecdsa or ed25519; dsa is refused' })),
        generate_length: Type.Optional(Type.Integer({ description: 'RSA: 2048 to 4096 (default 4096); ECDSA: 256, 384 or 521' })),
      }),
      response: { 201: CreatedPublicKeyBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    const body = request.body;
    const { key, generated } = await createPublicKey(a, {
      title: body.title,
      userId: body.user_id,
      publicKey: body.public_key,
      generateKeypair: body.generate_keypair,
      generate: { algorithm: body.generate_algorithm, length: body.generate_length, password: body.generate_private_key_password },
    }, confirmIdentity(request, deps, a));
    const extra = generated === undefined ? {} : { status: 'complete' as const, generated_private_key: generated.privateKey, generated_public_key: generated.publicKey };
    return reply.code(201).send({ ...publicKeyBody(key), ...extra });
  });

  app.get('/public_keys/:id', {
    schema: { summary: 'Show an SSH public key', params: IdParams, querystring: Type.Object({}), response: { 200: PublicKeyBody, ...errorResponses } },
  }, async (request) => publicKeyBody(await findPublicKeyAs(callOf(request, deps), request.params.id)));

  app.route({
    method: UPDATE_METHODS,
    url: '/public_keys/:id',
    // Files.com's SDK always sends `title`; without one nothing changes (contract 1.1).
    schema: { summary: 'Rename an SSH public key', params: IdParams, body: Type.Object({ title: Type.Optional(Title) }), response: { 200: PublicKeyBody, ...errorResponses } },
    handler: async (request) => {
      const a = callOf(request, deps);
      const key = await findPublicKeyAs(a, request.params.id);
      const title = request.body.title;
      return publicKeyBody(title === undefined ? key : await renamePublicKeyAs(a, key, title));
    },
  });

  app.delete('/public_keys/:id', {
    schema: { ...asksForReauthentication, summary: 'Delete an SSH public key', params: IdParams, body: Type.Unknown({ description: 'Ignored.' }), response: { ...NoContent, ...errorResponses } },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    await deletePublicKeyAs(a, await findPublicKeyAs(a, request.params.id), confirmIdentity(request, deps, a));
    return reply.code(204).send(null);
  });
}
