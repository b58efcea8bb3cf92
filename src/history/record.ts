import type { Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { pathKey } from '../lib/paths.js';
import type { Origin } from '../lib/origin.js';
import { appendAfter, appendHistoryRows, appendsInOneStatement, reserveChainIds, type ChainEnd, type NewHistoryRow } from '../repositories/history.js';
import { chainHash } from './chain-hash.js';
import { redactSecrets } from './redact.js';
import type { FailureType, HistoryAction } from './values.js';

/** One action to record, as the feature that made the change describes it. */
export interface HistoryEvent {
  action: HistoryAction;
  /** The Workspace whose administrators see the record; null for a site-level record. */
  workspaceId: number | null;
  /** Friendly text, Files.com's `display`. Names, never secrets. */
  display: string;
  /** Qualified site paths (`_/Workspaces/3/Reports`): the path acted on, and for moves and copies where it went. */
  path?: string | null;
  source?: string | null;
  destination?: string | null;
  /** What the action was about (the user, group, key or grant; before and after for a change). */
  targets?: Readonly<Record<string, unknown>> | null;
  failureType?: FailureType | null;
}

/** Who acted: a user, and the API key used if any (a site-wide key has no user). */
export interface Actor {
  userId: number | null;
  username: string | null;
  apiKeyId: number | null;
}

/**
 * Records the actions of a change. Call it with the change's transaction, as its last statement:
 * the record commits with the change or not at all, and the chain lock it takes is held only
 * until the commit.
 */
export async function recordHistory(tx: Db, call: Call, events: readonly HistoryEvent[]): Promise<void> {
  // A reviewed change (a dry run, or a change whose effect on access is shown) learns its effect
  // here, after every write of the change; the first record carries it.
  const review = call.reviewChange === undefined ? undefined : await call.reviewChange(tx);
  const [first, ...rest] = events;
  const reviewed = review === undefined || first === undefined ? events : [{ ...first, targets: { ...first.targets, ...review } }, ...rest];
  await appendEvents(tx, { now: call.now, origin: call.origin, actor: actorOf(call) }, reviewed);
}

export function actorOf(call: Pick<Call, 'caller'>): Actor {
  const { user, credential } = call.caller;
  return {
    userId: user?.id ?? null,
    username: user?.username ?? null,
    // Key id 0 is the administration command's or an automation's own authority, not a stored key
    // (cli/site-caller.ts, access/caller.ts).
    apiKeyId: credential.kind === 'api_key' && credential.keyId !== 0 ? credential.keyId : null,
  };
}

/** What an event needs when there is no Call: sign-ins, made before anyone is signed in. */
export interface Recording {
  now: number;
  origin: Origin;
  actor: Actor;
}

/**
 * Where each database's chain ended after this process last appended to it: a guess, which the
 * append checks (appendAfter), so one record costs one conditional write instead of a reservation
 * and a write. A guess gone stale (another node or process appended, or the transaction that
 * appended was rolled back) costs that write for nothing; on PostgreSQL the miss answers the real
 * end and one more try usually lands (appendAfterLastSeen), else the reservation follows. Keyed by
 * the database's adapter, which its transactions share.
 */
const lastSeenEnds = new WeakMap<object, ChainEnd>();

export async function appendEvents(tx: Db, recording: Recording, events: readonly HistoryEvent[]): Promise<void> {
  const [only] = events;
  if (only === undefined) return;
  if (events.length === 1 && (await appendAfterLastSeen(tx, recording, only))) return;
  const database = tx.getExecutor().adapter;
  let { firstId: id, previousHash } = await reserveChainIds(tx, events.length);
  const rows: NewHistoryRow[] = [];
  for (const event of events) {
    const row = rowOf(id, recording, event);
    previousHash = chainHash(previousHash, row);
    rows.push({ ...row, hash: previousHash });
    id += 1;
  }
  await appendHistoryRows(tx, rows);
  lastSeenEnds.set(database, { lastId: id - 1, lastHash: previousHash });
}

/**
 * Records the events of a change made of nothing else (a download's read): on PostgreSQL, when the
 * chain's end is known, the one statement that appends needs no transaction around it.
 */
export async function appendEventsAlone(db: Db, recording: Recording, events: readonly HistoryEvent[]): Promise<void> {
  const [only] = events;
  if (only !== undefined && events.length === 1 && appendsInOneStatement(db) && (await appendAfterLastSeen(db, recording, only))) return;
  await db.transaction().execute((tx) => appendEvents(tx, recording, events));
}

/**
 * Appends one event after the chain's end as last seen here, if it is still there; answers whether
 * it did. A miss on PostgreSQL answers the end another writer left, and the event is tried once
 * more after it: with several nodes or workers recording in turn, a record then costs two
 * statements. After a miss the guess holds the best end known, or none when the miss taught
 * nothing (SQLite, or a writer not yet committed), so the reservation that follows in a
 * transaction (appendEvents) does not try a guess already found stale.
 */
async function appendAfterLastSeen(tx: Db, recording: Recording, event: HistoryEvent): Promise<boolean> {
  const database = tx.getExecutor().adapter;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const seen = lastSeenEnds.get(database);
    if (seen === undefined) return false;
    const row = rowOf(seen.lastId + 1, recording, event);
    const hash = chainHash(seen.lastHash, row);
    const outcome = await appendAfter(tx, seen, { ...row, hash });
    if (outcome.appended) {
      lastSeenEnds.set(database, { lastId: seen.lastId + 1, lastHash: hash });
      return true;
    }
    const learned = outcome.endBefore !== undefined && (outcome.endBefore.lastId !== seen.lastId || outcome.endBefore.lastHash !== seen.lastHash);
    if (learned) lastSeenEnds.set(database, outcome.endBefore as ChainEnd);
    else lastSeenEnds.delete(database);
  }
  return false;
}

/** The event's targets, with the share link it came through when it did (`bundle`). */
function targetsOf(origin: Origin, event: HistoryEvent): string | null {
  const link = origin.bundle;
  const targets = link === undefined ? event.targets : { ...event.targets, bundle: { id: link.id, code: link.code, registration_id: link.registrationId } };
  return targets == null ? null : JSON.stringify(redactSecrets(targets));
}

function rowOf(id: number, { now, origin, actor }: Recording, event: HistoryEvent): Omit<NewHistoryRow, 'hash'> {
  return {
    id,
    created_at: now,
    action: event.action,
    failure_type: event.failureType ?? null,
    interface: origin.interface,
    ip: origin.ip,
    user_id: actor.userId,
    username: actor.username,
    api_key_id: actor.apiKeyId,
    workspace_id: event.workspaceId,
    path: event.path ?? null,
    path_key: event.path == null ? null : pathKey(event.path),
    source: event.source ?? null,
    destination: event.destination ?? null,
    destination_key: event.destination == null ? null : pathKey(event.destination),
    display: event.display,
    targets: targetsOf(origin, event),
    automation_id: origin.automation?.id ?? null,
    automation_name: origin.automation?.name ?? null,
  };
}
