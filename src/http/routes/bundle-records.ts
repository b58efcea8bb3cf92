import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { pathOfCall } from '../../access/index.js';
import {
  type BundleRecipient, type BundleRegistration, createBundleRecipient, listBundleActions, listBundleDownloads, listBundleRecipients,
  listBundleRegistrations,
} from '../../bundles/index.js';
import { isoTime } from '../../lib/time.js';
import { callOf } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import { listParameterQuery, readListParameters } from '../list-parameters.js';
import { paginationQuery, readPage, sendPage } from '../pagination.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, RecordId } from '../schemas.js';
import {
  BUNDLE_ACTION_LIST_PARAMETERS, BUNDLE_DOWNLOAD_LIST_PARAMETERS, BUNDLE_RECIPIENT_LIST_PARAMETERS, BUNDLE_REGISTRATION_LIST_PARAMETERS,
  bundleRecipientFilterOf, bundleRecordFilterOf,
} from './bundle-list-parameters.js';

// /bundle_recipients, /bundle_registrations, /bundle_downloads and /bundle_actions
// (docs/sharing.md): who a link was shared with, and what its visitors did, as Files.com's
// BundleRecipient, BundleRegistration, BundleDownload and BundleAction models show them.

const NullableText = Type.Union([Type.String(), Type.Null()]);

const BundleRecipientBody = Type.Object({
  id: Type.Integer(),
  bundle_id: Type.Integer(),
  recipient: Type.String(),
  name: NullableText,
  company: NullableText,
  note: NullableText,
  sent_at: Type.Union([Type.String(), Type.Null()], { description: 'always null: Atrium sends no mail' }),
  created_at: Type.String(),
  workspace_id: Type.Integer(),
});

const BundleRegistrationBody = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: NullableText,
  company: NullableText,
  email: NullableText,
  ip: NullableText,
  inbox_code: Type.Null(),
  clickwrap_body: Type.Null(),
  form_field_set_id: Type.Null(),
  form_field_data: Type.Null(),
  bundle_code: NullableText,
  bundle_id: Type.Integer(),
  bundle_recipient_id: Type.Union([Type.Integer(), Type.Null()]),
  workspace_id: Type.Integer(),
  created_at: Type.String(),
});

const BundleDownloadBody = Type.Object({
  id: Type.Integer(),
  bundle_id: Type.Integer(),
  bundle_registration: Type.Union([BundleRegistrationBody, Type.Null()]),
  download_method: Type.String({ description: 'file or full_zip' }),
  path: NullableText,
  workspace_id: Type.Integer(),
  created_at: Type.String(),
});

const BundleActionBody = Type.Object({
  id: Type.Integer(),
  bundle_id: Type.Integer(),
  action: Type.String({ description: 'create, read, update, destroy, move, copy or registration' }),
  bundle_registration: Type.Union([BundleRegistrationBody, Type.Null()]),
  bundle_registration_id: Type.Union([Type.Integer(), Type.Null()]),
  bundle_registration_name: NullableText,
  bundle_registration_email: NullableText,
  bundle_registration_ip: NullableText,
  path: NullableText,
  source: NullableText,
  destination: NullableText,
  form_field_set_id: Type.Null(),
  form_field_data: Type.Null(),
  workspace_id: Type.Integer(),
  created_at: Type.String(),
});

function recipientBody(recipient: BundleRecipient): Static<typeof BundleRecipientBody> {
  return {
    id: recipient.id, bundle_id: recipient.bundleId, recipient: recipient.recipient, name: recipient.name, company: recipient.company, note: recipient.note,
    sent_at: recipient.sentAt === null ? null : isoTime(recipient.sentAt), created_at: isoTime(recipient.createdAt), workspace_id: recipient.workspaceId,
  };
}

function registrationBody(registration: BundleRegistration): Static<typeof BundleRegistrationBody> {
  return {
    id: registration.id, code: registration.code, name: registration.name, company: registration.company, email: registration.email, ip: registration.ip,
    inbox_code: null, clickwrap_body: null, form_field_set_id: null, form_field_data: null, bundle_code: registration.bundleCode, bundle_id: registration.bundleId,
    bundle_recipient_id: registration.bundleRecipientId, workspace_id: registration.workspaceId, created_at: isoTime(registration.createdAt),
  };
}

/** A qualified site path as the request's context names it. */
function shownPath(request: FastifyRequest, deps: RouteDeps, path: string | null): string | null {
  return path === null ? null : (pathOfCall(callOf(request, deps), path) ?? path);
}

const BundleIdQuery = (description: string) => Type.Optional(RecordId({ minimum: 1, description }));

export function bundleRecordRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/bundle_recipients', {
    schema: {
      summary: 'List the recipients of a share link',
      description: 'Filters by `has_registrations`.',
      querystring: Type.Object({ bundle_id: RecordId({ minimum: 1 }), user_id: Type.Optional(RecordId()), ...paginationQuery, ...listParameterQuery(BUNDLE_RECIPIENT_LIST_PARAMETERS) }),
      response: { 200: Type.Array(BundleRecipientBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const filter = bundleRecipientFilterOf(readListParameters(BUNDLE_RECIPIENT_LIST_PARAMETERS, request.query));
    const page = readPage<number>('bundle_recipients', request.query, 'id');
    const rows = await listBundleRecipients(callOf(request, deps), request.query.bundle_id, filter, { afterId: page.after ?? 0, limit: page.limit + 1 });
    return sendPage(reply, deps.headers, 'bundle_recipients', rows, page.limit, (row) => row.id).map(recipientBody);
  });

  app.post('/bundle_recipients', {
    schema: {
      summary: 'Share a link with one recipient, recorded (Atrium sends no mail)',
      body: Type.Object({
        bundle_id: RecordId({ minimum: 1 }),
        recipient: Type.String({ maxLength: 1024 }),
        name: Type.Optional(Type.Union([Type.String({ maxLength: 16_384 }), Type.Null()])),
        company: Type.Optional(Type.Union([Type.String({ maxLength: 16_384 }), Type.Null()])),
        note: Type.Optional(Type.Union([Type.String({ maxLength: 16_384 }), Type.Null()])),
        share_after_create: Type.Optional(Type.Boolean({ description: 'changes nothing: a recipient is recorded at once, and Atrium sends no mail' })),
        user_id: Type.Optional(RecordId()),
      }),
      response: { 201: BundleRecipientBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const recorded = await createBundleRecipient(callOf(request, deps), request.body);
    return reply.code(201).send(recipientBody(recorded));
  });

  app.get('/bundle_registrations', {
    schema: {
      summary: 'List the registrations of share links the caller sees',
      querystring: Type.Object({
        bundle_id: BundleIdQuery('the registrations of this link'), user_id: Type.Optional(RecordId({ description: "the links of this creator; 0: the caller's own" })),
        ...paginationQuery, ...listParameterQuery(BUNDLE_REGISTRATION_LIST_PARAMETERS),
      }),
      response: { 200: Type.Array(BundleRegistrationBody), ...errorResponses },
    },
  }, async (request, reply) => {
    readListParameters(BUNDLE_REGISTRATION_LIST_PARAMETERS, request.query);
    const page = readPage<number>('bundle_registrations', request.query, 'id');
    const { bundle_id: bundleId, user_id: userId } = request.query;
    const rows = await listBundleRegistrations(callOf(request, deps), { ...(bundleId === undefined ? {} : { bundleId }), ...(userId === undefined ? {} : { userId }) },
      { afterId: page.after ?? 0, limit: page.limit + 1 });
    return sendPage(reply, deps.headers, 'bundle_registrations', rows, page.limit, (row) => row.id).map(registrationBody);
  });

  app.get('/bundle_downloads', {
    schema: {
      summary: 'List the downloads through share links the caller sees',
      description: 'Filters by `created_at` and its ranges.',
      querystring: Type.Object({
        bundle_id: BundleIdQuery('the downloads through this link'), bundle_registration_id: BundleIdQuery('the downloads of this registration'),
        ...paginationQuery, ...listParameterQuery(BUNDLE_DOWNLOAD_LIST_PARAMETERS),
      }),
      response: { 200: Type.Array(BundleDownloadBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const filter = bundleRecordFilterOf(readListParameters(BUNDLE_DOWNLOAD_LIST_PARAMETERS, request.query), request.query.bundle_registration_id);
    const page = readPage<number>('bundle_downloads', request.query, 'id');
    const bundleId = request.query.bundle_id;
    const rows = filter === undefined ? [] : await listBundleDownloads(callOf(request, deps), bundleId === undefined ? {} : { bundleId }, filter, { afterId: page.after ?? 0, limit: page.limit + 1 });
    return sendPage(reply, deps.headers, 'bundle_downloads', rows, page.limit, (row) => row.id).map((download) => ({
      id: download.id, bundle_id: download.bundleId, bundle_registration: download.registration === null ? null : registrationBody(download.registration),
      download_method: download.downloadMethod, path: shownPath(request, deps, download.path), workspace_id: download.workspaceId, created_at: isoTime(download.createdAt),
    }));
  });

  app.get('/bundle_actions', {
    schema: {
      summary: 'List what visitors did through share links the caller sees',
      description: 'Filters by `created_at` (and its ranges), `bundle_id` and `bundle_registration_id`.',
      querystring: Type.Object({
        bundle_id: BundleIdQuery('the actions through this link'), bundle_registration_id: BundleIdQuery('the actions of this registration'),
        user_id: Type.Optional(RecordId({ description: "the links of this creator; 0: the caller's own" })),
        ...paginationQuery, ...listParameterQuery(BUNDLE_ACTION_LIST_PARAMETERS),
      }),
      response: { 200: Type.Array(BundleActionBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const parameters = readListParameters(BUNDLE_ACTION_LIST_PARAMETERS, request.query);
    const filter = bundleRecordFilterOf(parameters, request.query.bundle_registration_id);
    const byFilter = parameters.equals.bundle_id as number | undefined;
    const { bundle_id: byQuery, user_id: userId } = request.query;
    const disagree = byFilter !== undefined && byQuery !== undefined && byFilter !== byQuery;
    const bundleId = byQuery ?? byFilter;
    const page = readPage<number>('bundle_actions', request.query, 'id');
    const rows = filter === undefined || disagree ? [] : await listBundleActions(callOf(request, deps),
      { ...(bundleId === undefined ? {} : { bundleId }), ...(userId === undefined ? {} : { userId }) }, filter, { afterId: page.after ?? 0, limit: page.limit + 1 });
    return sendPage(reply, deps.headers, 'bundle_actions', rows, page.limit, (row) => row.id).map((action) => ({
      id: action.id, bundle_id: action.bundleId, action: action.action, bundle_registration: action.registration === null ? null : registrationBody(action.registration),
      bundle_registration_id: action.registration?.id ?? null, bundle_registration_name: action.registration?.name ?? null,
      bundle_registration_email: action.registration?.email ?? null, bundle_registration_ip: action.registration?.ip ?? null,
      path: shownPath(request, deps, action.path), source: shownPath(request, deps, action.source), destination: shownPath(request, deps, action.destination),
      form_field_set_id: null, form_field_data: null, workspace_id: action.workspaceId, created_at: isoTime(action.createdAt),
    }));
  });
}
