import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callAutomationWebhook } from '../../automations/index.js';
import { API_ROOT } from '../api-paths.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses } from '../schemas.js';

// The webhook URL of an automation (docs/automations.md#webhook-calls): a GET or POST with no
// credential queues a run. The feature decides everything; this translates the call.

const WEBHOOK_PATH = '/automations/webhook';

const WebhookParams = Type.Object({ webhookId: Type.String({ maxLength: 64 }), secret: Type.String({ maxLength: 256 }) });

export function automationWebhookRoutes(app: ApiInstance, deps: RouteDeps): void {
  void app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    // Form fields as well as JSON (the parser every route has), as webhook senders post either;
    // either body is held to the 1 MiB of any JSON request.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    for (const method of ['GET', 'POST'] as const) {
      scope.route({
        method,
        url: `${WEBHOOK_PATH}/:webhookId/:secret`,
        config: { public: true },
        schema: {
          summary: 'Run a webhook-triggered automation: the URL\'s secret is the credential; the query\'s and body\'s fields are the run\'s parameters',
          params: WebhookParams,
          response: { 200: Type.Object({ automation_run_id: Type.Integer() }), ...errorResponses },
        },
        handler: async (request) => {
          const { runId } = await callAutomationWebhook(deps.db, deps.clock.now(), {
            webhookId: request.params.webhookId,
            secret: request.params.secret,
            query: (request.query ?? {}) as Record<string, unknown>,
            body: request.body === undefined || request.body === null ? undefined : (request.body as Record<string, unknown>),
          });
          return { automation_run_id: runId };
        },
      });
    }
  });
}

/** A URL path with a webhook URL's secret replaced, so that no log line holds a working URL. */
export function redactWebhookSecret(urlPath: string): string {
  return urlPath.replace(new RegExp(`^(${API_ROOT}${WEBHOOK_PATH}/[^/?]*/)[^/?]+`), '$1[redacted]');
}
