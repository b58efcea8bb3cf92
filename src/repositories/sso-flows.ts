import type { Db } from '../db/database.js';

export type FlowPurpose = 'sign_in' | 'reauthenticate';

/** A sign-in or reauthentication on its way through a provider. */
export interface SsoFlow {
  id: number;
  secretHash: string;
  providerId: number;
  purpose: FlowPurpose;
  /** The session a reauthentication confirms. */
  sessionId: number | null;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  returnTo: string;
  expiresAt: number;
  usedAt: number | null;
}

export interface NewSsoFlow extends Omit<SsoFlow, 'id' | 'usedAt' | 'secretHash'> {
  lookup: string;
  secretHash: string;
  now: number;
}

export async function insertFlow(tx: Db, flow: NewSsoFlow): Promise<void> {
  await tx.insertInto('sso_sign_in_flows').values({
    lookup: flow.lookup, secret_hash: flow.secretHash, provider_id: flow.providerId, purpose: flow.purpose, session_id: flow.sessionId, state: flow.state,
    nonce: flow.nonce, code_verifier: flow.codeVerifier, redirect_uri: flow.redirectUri, return_to: flow.returnTo, created_at: flow.now,
    expires_at: flow.expiresAt, used_at: null, confirmed_at: null,
  }).execute();
}

/** Flows whose secret's hash starts with `lookup`; the caller compares the full hash. */
export async function findFlowCandidates(db: Db, lookup: string): Promise<SsoFlow[]> {
  const rows = await db.selectFrom('sso_sign_in_flows').selectAll().where('lookup', '=', lookup).execute();
  return rows.map((row) => ({
    id: row.id, secretHash: row.secret_hash, providerId: row.provider_id, purpose: row.purpose as FlowPurpose, sessionId: row.session_id, state: row.state,
    nonce: row.nonce, codeVerifier: row.code_verifier, redirectUri: row.redirect_uri, returnTo: row.return_to, expiresAt: row.expires_at, usedAt: row.used_at,
  }));
}

/** Marks the flow used unless it was already: answers whether this call used it (a flow is used once). */
export async function useFlow(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db.updateTable('sso_sign_in_flows').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A reauthentication that succeeded at the provider: its session counts as confirmed from `now`. */
export async function confirmFlow(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('sso_sign_in_flows').set({ confirmed_at: now }).where('id', '=', id).execute();
}

/** When the session was last confirmed at a provider, at or after `since`; undefined when it was not. */
export async function sessionConfirmedSince(db: Db, sessionId: number, since: number): Promise<boolean> {
  const row = await db.selectFrom('sso_sign_in_flows').select('id')
    .where('session_id', '=', sessionId).where('purpose', '=', 'reauthenticate').where('confirmed_at', '>=', since).executeTakeFirst();
  return row !== undefined;
}

/** Removes the flows that ended before `before` (expired, whether used or not); bounded, so that it never holds up a sign-in. */
export async function pruneFlows(db: Db, before: number, limit: number): Promise<void> {
  const old = db.selectFrom('sso_sign_in_flows').select('id').where('expires_at', '<', before).limit(limit);
  await db.deleteFrom('sso_sign_in_flows').where('id', 'in', old).execute();
}

/** The user of a session that has not ended; undefined for an ended or unknown one. */
export async function activeSessionUser(db: Db, sessionId: number): Promise<number | undefined> {
  const row = await db.selectFrom('sessions').select(['user_id', 'ended_at']).where('id', '=', sessionId).executeTakeFirst();
  return row === undefined || row.ended_at !== null ? undefined : row.user_id;
}
