import { type Call, findVisibleBundle } from '../access/index.js';
import type { Db } from '../db/database.js';
import { lockAndRead } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { readSharingSettings } from '../identity/index.js';
import type { IdPageRequest } from '../lib/sorted-page.js';
import {
  type BundleRecipient, type BundleRecipientFilter, insertBundleRecipients, listBundleRecipients as listRecipientsOf, type NewBundleRecipient,
  recipientKeysOf,
} from '../repositories/bundle-activity.js';
import { findBundleById } from '../repositories/bundles.js';
import { refusingDuplicates } from '../repositories/constraint-errors.js';
import { bundleShared } from './bundle-history.js';

// Sharing a link with people (docs/sharing.md#sharing-a-link). Atrium sends no mail: sharing
// records who the link is for (their address, name and company, and the note), for the link's
// creator and administrators to see, and the link itself is handed over by whoever shares it
// (the console offers it to copy). `sent_at` stays null, as nothing was sent.

const MAX_TEXT = 16_384;
const MAX_RECIPIENTS = 1000;
/** An address as mail is addressed: something, one `@`, a domain with a dot; no spaces. */
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_ADDRESS = 254;

export interface RecipientInput {
  recipient?: string;
  name?: string | null;
  company?: string | null;
}

export interface ShareInput {
  to?: string[] | null;
  recipients?: RecipientInput[] | null;
  note?: string | null;
}

/**
 * POST /bundles/<id>/share: records each address of `to` and `recipients` as a recipient of the
 * link. An address already recorded for the link stays as it was (sharing again is no error);
 * only the new ones are recorded, in one History record. Refused while sharing is off.
 */
export async function shareBundle(a: Call, id: number, input: ShareInput): Promise<void> {
  const note = optionalText('note', input.note ?? null);
  const wanted = [
    ...(input.to ?? []).map((recipient) => ({ recipient, name: null, company: null })),
    ...(input.recipients ?? []).map((r) => ({ recipient: r.recipient ?? '', name: r.name ?? null, company: r.company ?? null })),
  ];
  if (wanted.length === 0) throw errors.paramsRequired({ to: ['name the addresses to share the link with, in to or recipients'] });
  if (wanted.length > MAX_RECIPIENTS) throw errors.paramsInvalid({ to: [`at most ${MAX_RECIPIENTS} recipients at once`] });
  const checked = wanted.map((r) => checkedRecipient(r, note));
  const bundle = await findVisibleBundle(a.db, a.caller, a.requestWorkspaceId, id);
  if (!(await readSharingSettings(a.db)).sharing_enabled) throw errors.sharingDisabled();
  await refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    // The link's recipients are looked at and added one sharing at a time: of identical sharings at
    // once, the first records the recipients and the others find them recorded.
    await lockedBundle(tx, bundle.id);
    const known = await recipientKeysOf(tx, bundle.id, checked.map((r) => r.recipient.toLowerCase()));
    const fresh = new Map<string, NewBundleRecipient>();
    for (const r of checked) {
      const key = r.recipient.toLowerCase();
      if (!known.has(key) && !fresh.has(key)) fresh.set(key, r);
    }
    if (fresh.size === 0) return;
    const recorded = await insertBundleRecipients(tx, bundle, [...fresh.values()], a.now);
    await recordHistory(tx, a, [bundleShared(bundle, recorded, note)]);
  }), () => errors.recipientAlreadyShared());
}

/** GET /bundle_recipients: the recipients of one link the caller sees. */
export async function listBundleRecipients(a: Call, bundleId: number, filter: BundleRecipientFilter, page: IdPageRequest): Promise<BundleRecipient[]> {
  const bundle = await findVisibleBundle(a.db, a.caller, a.requestWorkspaceId, bundleId);
  return listRecipientsOf(a.db, bundle.id, filter, page);
}

/**
 * POST /bundle_recipients: one recipient of one link, recorded and shared at once (Atrium has no
 * mail to send later, so `share_after_create` changes nothing). An address already recorded for
 * the link is `processing-failure/recipient-already-shared`.
 */
export async function createBundleRecipient(a: Call, input: { bundle_id: number; recipient: string; name?: string | null; company?: string | null; note?: string | null }): Promise<BundleRecipient> {
  const note = optionalText('note', input.note ?? null);
  const checked = checkedRecipient({ recipient: input.recipient, name: input.name ?? null, company: input.company ?? null }, note);
  const bundle = await findVisibleBundle(a.db, a.caller, a.requestWorkspaceId, input.bundle_id);
  if (!(await readSharingSettings(a.db)).sharing_enabled) throw errors.sharingDisabled();
  return refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    await lockedBundle(tx, bundle.id);
    if ((await recipientKeysOf(tx, bundle.id, [checked.recipient.toLowerCase()])).size > 0) throw errors.recipientAlreadyShared();
    const [recorded] = await insertBundleRecipients(tx, bundle, [checked], a.now);
    await recordHistory(tx, a, [bundleShared(bundle, [recorded as BundleRecipient], note)]);
    return recorded as BundleRecipient;
  }), () => errors.recipientAlreadyShared());
}

/** Locks the link until the transaction ends; `not-found` when it was deleted meanwhile. */
async function lockedBundle(tx: Db, id: number): Promise<void> {
  if ((await lockAndRead(tx, 'bundles', id, findBundleById)) === undefined) throw errors.bundleNotFound();
}

function checkedRecipient(r: { recipient: string; name: string | null; company: string | null }, note: string | null): NewBundleRecipient {
  const recipient = r.recipient.trim();
  if (recipient === '') throw errors.paramsRequired({ recipient: ['each recipient is an email address'] });
  if (recipient.length > MAX_ADDRESS || !ADDRESS.test(recipient)) throw errors.paramsInvalid({ recipient: [`"${recipient.slice(0, 100)}" is not an email address`] });
  return { recipient, name: optionalText('name', r.name), company: optionalText('company', r.company), note };
}

function optionalText(field: string, raw: string | null): string | null {
  if (raw === null) return null;
  const value = raw.trim();
  if (value.length > MAX_TEXT) throw errors.paramsInvalid({ [field]: [`is too long (at most ${MAX_TEXT} characters)`] });
  return value === '' ? null : value;
}
