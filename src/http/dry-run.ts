import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { toRequestPath, type Call } from '../access/index.js';
import type { AccessChange } from '../access-review/index.js';

/**
 * `dry_run=true` on a change of grants, memberships or users (docs/permissions.md, "Access
 * review"): in the query string, or in the JSON body of a POST or PATCH.
 */
export const DryRunQuery = { dry_run: Type.Optional(Type.Boolean({ description: 'Answer what the change would do to effective access, and change nothing.' })) };

export function isDryRun(query: { dry_run?: boolean | undefined }, body?: unknown): boolean {
  if (query.dry_run === true) return true;
  return typeof body === 'object' && body !== null && (body as { dry_run?: unknown }).dry_run === true;
}

const AccessChangeBody = Type.Object({
  user_id: Type.Integer(),
  username: Type.Union([Type.String(), Type.Null()]),
  path: Type.String({ description: 'as the request context shows it' }),
  capabilities_before: Type.Array(Type.String()),
  capabilities_after: Type.Array(Type.String()),
  gained: Type.Array(Type.String()),
  lost: Type.Array(Type.String()),
  roles_gained: Type.Array(Type.String({ description: 'site_admin, workspace_admin or folder_admin' })),
  roles_lost: Type.Array(Type.String()),
});

export const DryRunBody = Type.Object({
  dry_run: Type.Literal(true),
  access_difference: Type.Array(AccessChangeBody, { description: 'every user and path whose access the change would alter' }),
});

/** The dry run's answer: `200` with the difference, paths as the request context shows them. */
export function sendDryRun(reply: FastifyReply, call: Call, difference: readonly AccessChange[]) {
  const access_difference = difference.flatMap((change) => {
    const path = toRequestPath(call.requestWorkspaceId, change.path);
    return path === null ? [] : [{ ...change, path }];
  });
  return reply.code(200).send({ dry_run: true, access_difference });
}
