import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { pathOfCall } from '../../access/index.js';
import {
  BUNDLE_PERMISSIONS, type BundleInput, type BundleSortField, bundleSortValue, type BundleView, CODE_MAX_LENGTH, createBundle, deleteBundle, getBundle,
  listBundles, shareBundle, type ShareInput, updateBundle,
} from '../../bundles/index.js';
import { isoTime } from '../../lib/time.js';
import { callOf } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import { listParameterQuery, readListParameters } from '../list-parameters.js';
import { paginationQuery, setCursorHeaders } from '../pagination.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams, RecordId } from '../schemas.js';
import { readSortedPage, requestedOrder, sortedPageOf } from '../sorted-cursor.js';
import { UPDATE_METHODS } from '../update-methods.js';
import { publicBaseUrl } from './files/transfer-urls.js';
import { BUNDLE_LIST_PARAMETERS, bundleFilterOf } from './bundle-list-parameters.js';

// /bundles (docs/sharing.md): Files.com's Bundle model, the share link, field for field.

/** Where a link's public page is, below the server's public address. */
export const SHARE_LINK_PATH = '/f';

const NullableText = Type.Union([Type.String(), Type.Null()]);
const NullableTime = Type.Union([Type.String(), Type.Null()]);

const BundlePathBody = Type.Object({ path: Type.String(), recursive: Type.Boolean() });

const BundleBody = Type.Object({
  id: Type.Integer(),
  code: Type.String({ description: 'the last part of the public URL' }),
  url: Type.String({ description: 'the public URL of the link: ATRIUM_PUBLIC_URL (or the request\'s own scheme and host) + /f/<code>' }),
  description: NullableText,
  internal_name: NullableText,
  note: NullableText,
  expires_at: NullableTime,
  start_access_on_date: NullableTime,
  max_uses: Type.Union([Type.Integer(), Type.Null()]),
  password_protected: Type.Boolean({ description: 'whether the link has a password; the password itself is never returned' }),
  permissions: Type.String({ description: BUNDLE_PERMISSIONS.join(', ') }),
  preview_only: Type.Boolean(),
  require_registration: Type.Boolean(),
  require_share_recipient: Type.Boolean({ description: 'always false: Atrium sends no mail' }),
  skip_name: Type.Boolean(),
  skip_email: Type.Boolean(),
  skip_company: Type.Boolean(),
  path_template: NullableText,
  path_template_time_zone: NullableText,
  dont_separate_submissions_by_folder: Type.Boolean(),
  dont_allow_folders_in_uploads: Type.Boolean(),
  user_id: Type.Union([Type.Integer(), Type.Null()], { description: 'its creator; null once that user was deleted, which ended the link' }),
  username: NullableText,
  workspace_id: Type.Integer(),
  created_at: Type.String(),
  deleted: Type.Boolean({ description: 'always false: a deleted link is gone' }),
  deleted_at: NullableTime,
  paths: Type.Optional(Type.Array(Type.String(), { description: 'not in a listing' })),
  bundlepaths: Type.Optional(Type.Array(BundlePathBody, { description: 'not in a listing' })),
});

const time = (value: number | null) => (value === null ? null : isoTime(value));

/** The link as the API answers it; its paths as the request's context names them. */
function bundleBody(request: FastifyRequest, deps: RouteDeps, { bundle, paths }: BundleView): Static<typeof BundleBody> {
  const s = bundle.settings;
  const call = callOf(request, deps);
  const shown = (path: string) => pathOfCall(call, path) ?? path;
  return {
    id: bundle.id,
    code: bundle.code,
    url: `${publicBaseUrl(request)}${SHARE_LINK_PATH}/${bundle.code}`,
    description: s.description,
    internal_name: s.internal_name,
    note: s.note,
    expires_at: time(s.expires_at),
    start_access_on_date: time(s.start_access_on_date),
    max_uses: s.max_uses,
    password_protected: bundle.passwordHash !== null,
    permissions: s.permissions,
    preview_only: s.permissions === 'preview_only',
    require_registration: s.require_registration,
    require_share_recipient: false,
    skip_name: s.skip_name,
    skip_email: s.skip_email,
    skip_company: s.skip_company,
    path_template: s.path_template,
    path_template_time_zone: s.path_template_time_zone,
    dont_separate_submissions_by_folder: s.dont_separate_submissions_by_folder,
    dont_allow_folders_in_uploads: s.dont_allow_folders_in_uploads,
    user_id: bundle.userId,
    username: bundle.username,
    workspace_id: bundle.workspaceId,
    created_at: isoTime(bundle.createdAt),
    deleted: false,
    deleted_at: null,
    ...(paths === undefined ? {} : {
      paths: paths.map((p) => shown(p.path)),
      bundlepaths: paths.map((p) => ({ path: shown(p.path), recursive: p.recursive })),
    }),
  };
}

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Text = (maxLength: number) => Nullable(Type.String({ maxLength }));

const BundleFields = {
  paths: Nullable(Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 1000 })),
  password: Text(1024),
  code: Text(CODE_MAX_LENGTH + 100),
  description: Text(16_384),
  internal_name: Text(16_384),
  note: Text(16_384),
  expires_at: Text(64),
  start_access_on_date: Text(64),
  max_uses: Nullable(Type.Integer()),
  permissions: Text(64),
  require_registration: Type.Optional(Type.Boolean()),
  require_share_recipient: Type.Optional(Type.Boolean()),
  skip_name: Type.Optional(Type.Boolean()),
  skip_email: Type.Optional(Type.Boolean()),
  skip_company: Type.Optional(Type.Boolean()),
  path_template: Text(8192),
  path_template_time_zone: Text(256),
  dont_separate_submissions_by_folder: Type.Optional(Type.Boolean()),
  dont_allow_folders_in_uploads: Type.Optional(Type.Boolean()),
  user_id: Type.Optional(RecordId({ description: 'the user the link belongs to: 0 or absent for the caller; another only by an administrator of the Workspace' })),
};

const RecipientBody = Type.Object({
  recipient: Type.String({ maxLength: 1024 }),
  name: Text(16_384),
  company: Text(16_384),
});

export function bundleRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/bundles', {
    schema: {
      summary: 'List share links: all of the request context to its administrators, their own to others',
      description: 'Sorts by `expires_at` (links without one last); filters by `created_at`, `expires_at`, `code`, `user_id`, `created_at` and `expires_at` ranges, and a `code` prefix. `paths` and `bundlepaths` are not listed.',
      querystring: Type.Object({
        ...paginationQuery, ...listParameterQuery(BUNDLE_LIST_PARAMETERS),
        user_id: Type.Optional(RecordId({ description: "the links of this creator; 0: the caller's own" })),
      }),
      response: { 200: Type.Array(BundleBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const parameters = readListParameters(BUNDLE_LIST_PARAMETERS, request.query);
    const order = requestedOrder<BundleSortField>(parameters.sort);
    const page = readSortedPage('bundles', request.query, order);
    const a = callOf(request, deps);
    const userId = request.query.user_id === 0 ? (a.caller.user?.id ?? -1) : request.query.user_id;
    const filter = bundleFilterOf(parameters, userId);
    // One row more than the page, to learn whether another page follows.
    const bundles = filter === undefined ? [] : await listBundles(a, filter, { ...page, limit: page.limit + 1 });
    const listed = sortedPageOf('bundles', bundles, page, order === undefined, (bundle) => ({ value: bundleSortValue(bundle, page.sort.field), id: bundle.id }));
    if (listed.cursor !== undefined) setCursorHeaders(reply, deps.headers, listed.cursor);
    return listed.rows.map((bundle) => bundleBody(request, deps, { bundle }));
  });

  app.post('/bundles', {
    schema: {
      summary: 'Create a share link of files and folders the creator may share',
      body: Type.Object(BundleFields),
      response: { 201: BundleBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const created = await createBundle(callOf(request, deps), request.body as BundleInput);
    return reply.code(201).send(bundleBody(request, deps, created));
  });

  app.get('/bundles/:id', {
    schema: { summary: 'Show a share link', params: IdParams, response: { 200: BundleBody, ...errorResponses } },
  }, async (request) => bundleBody(request, deps, await getBundle(callOf(request, deps), request.params.id)));

  app.route({
    method: UPDATE_METHODS,
    url: '/bundles/:id',
    schema: {
      summary: "Change a share link's fields, paths, password or code",
      params: IdParams,
      body: Type.Object(BundleFields),
      response: { 200: BundleBody, ...errorResponses },
    },
    handler: async (request) => bundleBody(request, deps, await updateBundle(callOf(request, deps), request.params.id, request.body as BundleInput)),
  });

  app.delete('/bundles/:id', {
    schema: { summary: 'Delete a share link: it stops working at once', params: IdParams, response: { 204: Type.Null(), ...errorResponses } },
  }, async (request, reply) => {
    await deleteBundle(callOf(request, deps), request.params.id);
    return reply.code(204).send(null);
  });

  app.post('/bundles/:id/share', {
    schema: {
      summary: 'Share a link with people: records them as its recipients (Atrium sends no mail)',
      params: IdParams,
      body: Type.Object({
        to: Nullable(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 1000 })),
        recipients: Nullable(Type.Array(RecipientBody, { maxItems: 1000 })),
        note: Text(16_384),
      }),
      response: { 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    await shareBundle(callOf(request, deps), request.params.id, request.body as ShareInput);
    return reply.code(204).send(null);
  });
}
