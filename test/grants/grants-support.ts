import { expect } from 'vitest';
import type { CallOptions } from '../support/http-client.js';
import { createApiKey, createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY, type TestApp } from '../support/test-app.js';

/** A user with its own full API key: every effect is proved with the member's own credential. */
export interface Member {
  id: number;
  key: string;
}

export async function memberOf(t: TestApp, fields: { workspaceId?: number; workspaceAdmin?: boolean; siteAdmin?: boolean } = {}): Promise<Member> {
  const user = await createUser(t.database.db, fields);
  const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: fields.workspaceId ?? 0 });
  return { id: user.id, key };
}

/** Creates a grant with the site-wide bootstrap key (context 0 unless given) and returns its id. */
export async function grantAsSite(t: TestApp, body: Record<string, unknown>, workspace?: number): Promise<number> {
  const response = await t.api.post('/permissions', body, { key: BOOTSTRAP_KEY, ...(workspace === undefined ? {} : { workspace }) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as number;
}

/** What a member sees about itself on a path, through its own credential. */
export async function explainSelf(t: TestApp, member: Member, path: string, workspace: number, extra = '') {
  const response = await t.api.get(`/permissions/explain?path=${encodeURIComponent(path)}${extra}`, { key: member.key, workspace });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** Whether the member may delegate in Workspace `workspace`: try to create a grant there (and clean up). */
export async function tryDelegate(
  t: TestApp,
  member: Member,
  options: { workspace: number; path: string; granteeId: number; permission?: string; recursive?: boolean },
) {
  const body = { path: options.path, user_id: options.granteeId, permission: options.permission ?? 'readonly', ...(options.recursive === undefined ? {} : { recursive: options.recursive }) };
  const response = await t.api.post('/permissions', body, { key: member.key, workspace: options.workspace });
  if (response.status === 201) {
    const cleanup = await t.api.delete(`/permissions/${response.body.id}`, { key: BOOTSTRAP_KEY });
    expect(cleanup.status).toBe(204);
  }
  return response;
}

export function ids(body: unknown): number[] {
  expect(Array.isArray(body), JSON.stringify(body)).toBe(true);
  return (body as { id: number }[]).map((row) => row.id);
}

export function expectError(response: { status: number; body: any }, status: number, type: string): void {
  expect({ status: response.status, type: response.body?.type }, JSON.stringify(response.body)).toEqual({ status, type });
}

export type { CallOptions };
