import { hash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { findAutomationByWebhookId } from '../repositories/automations.js';
import { queueAutomationRun } from './automation-runs.js';
import { webhookParamsProblem } from './tokens.js';

// A call of an automation's webhook URL (docs/automations.md#webhook-calls): GET or POST
// `/automations/webhook/<id>/<secret>`, with no credential, since the secret is the credential.
// It queues a run whose cause carries the call's parameters (the `%u-<param>` tokens).

/** What a webhook call brings: the URL's two names and the parameters of its query and body. */
export interface WebhookCall {
  webhookId: string;
  secret: string;
  /** The query string's parameters, as parsed. */
  query: Readonly<Record<string, unknown>>;
  /** A POST's form or JSON body fields; a field named in both wins over the query's. */
  body: Readonly<Record<string, unknown>> | undefined;
}

/** Stands in for the stored hash when no automation has the id, so that both answers take the same work. */
const NO_HASH = Buffer.alloc(32);

/**
 * Queues a run of the automation the URL names and answers its id. An unknown id, a wrong secret
 * and a disabled automation get the same `not-found`, so the answer tells a prober nothing; the
 * secret's hash is compared in constant time. Parameters must be strings within the lengths a
 * destination may take from them (tokens.ts), or the call is refused and nothing is queued.
 */
export async function callAutomationWebhook(db: Db, now: number, call: WebhookCall): Promise<{ runId: number }> {
  const automation = await findAutomationByWebhookId(db, call.webhookId);
  const stored = automation?.webhookSecretHash ?? '';
  const expected = /^[0-9a-f]{64}$/.test(stored) ? Buffer.from(stored, 'hex') : NO_HASH;
  const matches = timingSafeEqual(hash('sha256', call.secret, 'buffer'), expected);
  if (automation === undefined || !matches || automation.settings.trigger !== 'webhook' || automation.settings.disabled) {
    throw errors.notFound('Not found.');
  }
  const params = webhookParams(call);
  return inTransaction(db, async (tx) => {
    const run = await queueAutomationRun(tx, automation, { kind: 'webhook', params }, now);
    // Without a dedupe key the run is always written (automation-runs.ts).
    return { runId: (run as { id: number }).id };
  });
}

/** The call's parameters, the body's over the query's; each a string, within the lengths allowed. */
function webhookParams(call: WebhookCall): Record<string, string> {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of [...Object.entries(call.query), ...Object.entries(call.body ?? {})]) {
    if (typeof value !== 'string') throw errors.paramsInvalid({ [name]: ['must be a single text value'] });
    params[name] = value;
  }
  const problem = webhookParamsProblem(params) ?? webhookParamsProblem(Object.fromEntries(Object.keys(params).map((name) => [name, name])));
  if (problem !== undefined) throw errors.paramsInvalid({ params: [problem] });
  return { ...params };
}
