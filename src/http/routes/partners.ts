import { Type } from 'typebox';
import { createPartner, deletePartner, getPartner, listPartners, partnerRecord, type PartnerSettings, type PartnerSortField, partnerSortValue, type PartnerView, updatePartner } from '../../partners/index.js';
import { definedOnly } from '../../lib/defined-only.js';
import { callOf } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import { listParameterQuery, readListParameters } from '../list-parameters.js';
import { paginationQuery, setCursorHeaders } from '../pagination.js';
import { readSortedPage, requestedOrder, sortedPageOf } from '../sorted-cursor.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams, RecordId } from '../schemas.js';
import { UPDATE_METHODS } from '../update-methods.js';
import { PARTNER_LIST_PARAMETERS, partnerFilterOf } from './partner-list-parameters.js';

// /partners (docs/partners.md): Files.com's Partner model, field for field.

const PartnerBody = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  root_folder: Type.String({ description: "a folder inside the Partner's Workspace, relative to its root" }),
  workspace_id: Type.Integer(),
  notes: Type.Optional(Type.String({ description: "only to Site Administrators and administrators of the Partner's Workspace" })),
  tags: Type.String({ description: 'comma-separated: lowercase letters, digits and hyphens' }),
  allowed_ips: Type.String({ description: 'newline-separated addresses and CIDR ranges; empty restricts nothing' }),
  allow_bypassing_2fa_policies: Type.Boolean(),
  allow_credential_changes: Type.Boolean(),
  allow_providing_gpg_keys: Type.Boolean(),
  allow_user_creation: Type.Boolean(),
  cc_emails_to_responsible_party: Type.Boolean(),
  responsible_user_id: Type.Union([Type.Integer(), Type.Null()]),
  responsible_group_id: Type.Union([Type.Integer(), Type.Null()]),
  partner_admin_ids: Type.Array(Type.Integer(), { description: 'read-only: the Partner Admins among its users' }),
  user_ids: Type.Array(Type.Integer(), { description: "read-only: the Partner's users" }),
  partnership_role: Type.Null({ description: 'read-only: Files.com\'s relationship between sites; an Atrium site has none' }),
});

function partnerBody({ partner, notesShown, userIds, partnerAdminIds }: PartnerView) {
  return {
    id: partner.id,
    ...partnerRecord(partner),
    ...(notesShown ? { notes: partner.settings.notes } : {}),
    partner_admin_ids: partnerAdminIds,
    user_ids: userIds,
    partnership_role: null,
  };
}

const NullableText = Type.Optional(Type.Union([Type.String({ maxLength: 16_384 }), Type.Null()]));
const NullableId = Type.Optional(Type.Union([RecordId({ minimum: 1 }), Type.Null()]));

const PartnerFields = {
  notes: NullableText,
  tags: NullableText,
  allowed_ips: NullableText,
  allow_bypassing_2fa_policies: Type.Optional(Type.Boolean()),
  allow_credential_changes: Type.Optional(Type.Boolean()),
  allow_providing_gpg_keys: Type.Optional(Type.Boolean()),
  allow_user_creation: Type.Optional(Type.Boolean()),
  cc_emails_to_responsible_party: Type.Optional(Type.Boolean()),
  responsible_user_id: NullableId,
  responsible_group_id: NullableId,
};

type PartnerFieldsInput = { notes?: string | null; tags?: string | null; allowed_ips?: string | null; allow_bypassing_2fa_policies?: boolean;
  allow_credential_changes?: boolean; allow_providing_gpg_keys?: boolean; allow_user_creation?: boolean; cc_emails_to_responsible_party?: boolean;
  responsible_user_id?: number | null; responsible_group_id?: number | null };

/** The settings as a request sends them; fields not sent stay absent, null text is empty. */
function settingsInput(body: PartnerFieldsInput): Partial<PartnerSettings> {
  const text = (value: string | null | undefined) => (value === null ? '' : value);
  return definedOnly({
    notes: text(body.notes), tags: text(body.tags), allowedIps: text(body.allowed_ips),
    allowBypassing2faPolicies: body.allow_bypassing_2fa_policies, allowCredentialChanges: body.allow_credential_changes,
    allowProvidingGpgKeys: body.allow_providing_gpg_keys, allowUserCreation: body.allow_user_creation,
    ccEmailsToResponsibleParty: body.cc_emails_to_responsible_party,
    responsibleUserId: body.responsible_user_id, responsibleGroupId: body.responsible_group_id,
  });
}

export function partnerRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/partners', {
    schema: {
      summary: 'List the Partners of the request context (administrators of it)',
      description: 'Sorts by `workspace_id` or `id` (`sort_by[workspace_id]=desc`) and filters by `filter[workspace_id]=`; any other field is refused by name.',
      querystring: Type.Object({ ...paginationQuery, ...listParameterQuery(PARTNER_LIST_PARAMETERS) }),
      response: { 200: Type.Array(PartnerBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const parameters = readListParameters(PARTNER_LIST_PARAMETERS, request.query);
    const order = requestedOrder<PartnerSortField>(parameters.sort);
    const page = readSortedPage('partners', request.query, order);
    // One row more than the page, to learn whether another page follows.
    const partners = await listPartners(callOf(request, deps), partnerFilterOf(parameters), { ...page, limit: page.limit + 1 });
    const listed = sortedPageOf('partners', partners, page, order === undefined, ({ partner }) => ({ value: partnerSortValue(partner, page.sort.field), id: partner.id }));
    if (listed.cursor !== undefined) setCursorHeaders(reply, deps.headers, listed.cursor);
    return listed.rows.map(partnerBody);
  });

  app.post('/partners', {
    schema: {
      summary: "Create a Partner (administrators of its Workspace); its root folder is created if missing",
      body: Type.Object({
        name: Type.String({ maxLength: 1024 }),
        root_folder: Type.String({ maxLength: 8192 }),
        workspace_id: Type.Optional(RecordId()),
        ...PartnerFields,
      }),
      response: { 201: PartnerBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const body = request.body;
    const created = await createPartner(callOf(request, deps), {
      name: body.name, rootFolder: body.root_folder, ...definedOnly({ workspaceId: body.workspace_id }), settings: settingsInput(body),
    });
    return reply.code(201).send(partnerBody(created));
  });

  app.get('/partners/:id', {
    schema: { summary: 'Show a Partner', params: IdParams, response: { 200: PartnerBody, ...errorResponses } },
  }, async (request) => partnerBody(await getPartner(callOf(request, deps), request.params.id)));

  app.route({
    method: UPDATE_METHODS,
    url: '/partners/:id',
    schema: {
      summary: "Change a Partner's name, root folder and settings (its Workspace stays)",
      params: IdParams,
      body: Type.Object({
        name: Type.Optional(Type.String({ maxLength: 1024 })),
        root_folder: Type.Optional(Type.String({ maxLength: 8192 })),
        // Declared so that it is refused by name rather than dropped: a Partner's Workspace is set once.
        workspace_id: Type.Optional(RecordId()),
        ...PartnerFields,
      }),
      response: { 200: PartnerBody, ...errorResponses },
    },
    handler: async (request) => {
      const body = request.body;
      const updated = await updatePartner(callOf(request, deps), request.params.id, {
        ...definedOnly({ name: body.name, rootFolder: body.root_folder, workspaceId: body.workspace_id }), settings: settingsInput(body),
      });
      return partnerBody(updated);
    },
  });

  app.delete('/partners/:id', {
    schema: { summary: 'Delete a Partner; its root folder and files stay', params: IdParams, response: { 204: Type.Null(), ...errorResponses } },
  }, async (request, reply) => {
    await deletePartner(callOf(request, deps), request.params.id);
    return reply.code(204).send(null);
  });
}
