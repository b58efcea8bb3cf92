import { hash, randomBytes } from 'node:crypto';

// The secret URL that triggers a `webhook` automation (docs/automations.md#fields). Whoever holds
// the URL can run the automation, so its secret is kept only as a hash, like an API key's: it is
// shown whole once, in the answer of the request that made it, and masked afterwards.

/** The mask shown in place of the secret after the answer that made it. */
export const MASKED_SECRET = '********';

export interface NewWebhook {
  /** Names the automation in the URL: random, so the URL gives away no automation id. */
  id: string;
  secret: string;
  secretHash: string;
}

export function newWebhook(): NewWebhook {
  const secret = randomBytes(32).toString('base64url');
  return { id: randomBytes(12).toString('base64url'), secret, secretHash: hash('sha256', secret, 'hex') };
}

/** The URL's path below the API root: `/automations/webhook/<id>/<secret>`. */
export function webhookPath(webhookId: string, secret: string | undefined): string {
  return `/automations/webhook/${webhookId}/${secret ?? MASKED_SECRET}`;
}
