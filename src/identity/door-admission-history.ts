import { assertAddressAdmits, assertDoorAdmits, type Caller, type Door, type DoorConnection } from '../access/index.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { AtriumError } from '../errors/atrium-error.js';
import { actorOf, appendEvents } from '../history/index.js';
import type { Interface } from '../lib/origin.js';

/**
 * A refused address is recorded at most once a minute for one credential holder and address:
 * a client retrying in a loop (WebDAV and SFTP clients do) must not fill History, and a minute
 * still shows an administrator when the attempts began and that they go on.
 */
const RECORD_AGAIN_AFTER_MS = 60_000;
/** Past this many remembered refusals the memory starts over; at worst a record comes early. */
const MAX_REMEMBERED = 10_000;

/** When each (database, holder, address) refusal was last recorded; per process, like the activity times. */
const lastRecorded = new WeakMap<object, Map<string, number>>();

/**
 * Admits the caller at a door as access/door-admission.ts decides, recording a refused address in
 * History (`failedlogin`, `failure_type` `ip_mismatch`, Files.com's value for it): every door's
 * sign-in and every request, whatever the credential. The other refusals of the door are
 * answered as they are; a refused sign-in by password is already recorded by the sign-in.
 * `door` 'scim' is SCIM, whose API keys only the address lists govern (an account's protocol
 * flags are about the doors people use, not provisioning).
 */
export async function admitAtDoor(db: Db, caller: Caller, door: Door | 'scim', from: DoorConnection & { interface: Interface }, now: number): Promise<void> {
  try {
    if (door === 'scim') await assertAddressAdmits(db, caller.user, from.ip);
    else await assertDoorAdmits(db, caller, door, from, now);
  } catch (error) {
    if (error instanceof AtriumError && error.type === 'not-authorized/ip-address-not-allowed') await recordRefusedAddress(db, caller, from, now);
    throw error;
  }
}

async function recordRefusedAddress(db: Db, caller: Caller, from: { ip: string; interface: Interface }, now: number): Promise<void> {
  const actor = actorOf({ caller });
  const holder = actor.userId === null ? `key ${actor.apiKeyId ?? 0}` : `user ${actor.userId}`;
  if (!firstInAMinute(db, `${holder} ${from.ip}`, now)) return;
  const who = actor.username ?? 'A site-wide API key';
  await inTransaction(db, (tx) => appendEvents(tx, { now, origin: { interface: from.interface, ip: from.ip }, actor }, [{
    action: 'failedlogin',
    failureType: 'ip_mismatch',
    workspaceId: caller.user?.workspaceId ?? null,
    display: `${who} refused at ${from.ip} (${from.interface}): the address is in no allowed IPs list that applies`,
  }]));
}

function firstInAMinute(db: Db, key: string, now: number): boolean {
  const database = db.getExecutor().adapter;
  let seen = lastRecorded.get(database);
  if (seen === undefined) {
    seen = new Map();
    lastRecorded.set(database, seen);
  }
  const last = seen.get(key);
  if (last !== undefined && now - last < RECORD_AGAIN_AFTER_MS && now >= last) return false;
  if (seen.size >= MAX_REMEMBERED) seen.clear();
  seen.set(key, now);
  return true;
}
