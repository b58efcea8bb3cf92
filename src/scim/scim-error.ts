import { AtriumError } from '../errors/atrium-error.js';

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A refusal that only SCIM knows how to say (a bad filter, a bad PATCH operation): RFC 7644 §3.12. */
export class ScimError extends Error {
  constructor(readonly status: number, readonly scimType: string | undefined, detail: string) {
    super(detail);
    this.name = 'ScimError';
  }
}

export const scimErrors = {
  invalidFilter: (detail: string) => new ScimError(400, 'invalidFilter', detail),
  invalidSyntax: (detail: string) => new ScimError(400, 'invalidSyntax', detail),
  invalidValue: (detail: string) => new ScimError(400, 'invalidValue', detail),
  invalidPath: (detail: string) => new ScimError(400, 'invalidPath', detail),
  noTarget: (detail: string) => new ScimError(400, 'noTarget', detail),
  mutability: (detail: string) => new ScimError(400, 'mutability', detail),
  versionMismatch: () => new ScimError(412, undefined, 'The resource has changed since the version given in If-Match.'),
  notFound: (detail = 'Resource not found.') => new ScimError(404, undefined, detail),
};

const STATUS_BY_FAMILY: Readonly<Record<string, number>> = {
  'bad-request': 400,
  'not-authenticated': 401,
  'not-authorized': 403,
  'not-found': 404,
  'processing-failure': 400,
  'rate-limited': 429,
  'service-unavailable': 503,
  'internal-server-error': 500,
};

export interface ScimErrorBody {
  schemas: string[];
  status: string;
  scimType?: string;
  detail: string;
}

/**
 * The SCIM form of any failure. A feature's refusal keeps its message; its family gives the status.
 * A taken name is SCIM's `409 uniqueness`, any other refused value `400 invalidValue`.
 */
export function scimErrorOf(error: unknown): { status: number; body: ScimErrorBody } {
  if (error instanceof ScimError) return { status: error.status, body: body(error.status, error.scimType, error.message) };
  if (error instanceof AtriumError) {
    const taken = Object.values(error.extra.modelErrors ?? {}).flat().some((m) => m.includes('already been taken'));
    if (taken) return { status: 409, body: body(409, 'uniqueness', error.message) };
    const status = STATUS_BY_FAMILY[error.family] ?? 500;
    const scimType = error.family === 'processing-failure' || error.type.startsWith('bad-request/request-params') ? 'invalidValue'
      : error.type === 'bad-request/invalid-body' ? 'invalidSyntax' : undefined;
    return { status, body: body(status, scimType, error.message) };
  }
  const framework = error as { statusCode?: number; message?: string };
  if (typeof framework.statusCode === 'number' && framework.statusCode >= 400 && framework.statusCode < 500) {
    return { status: framework.statusCode, body: body(framework.statusCode, 'invalidSyntax', framework.message ?? 'Bad request.') };
  }
  return { status: 500, body: body(500, undefined, 'Internal server error.') };
}

function body(status: number, scimType: string | undefined, detail: string): ScimErrorBody {
  return { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType === undefined ? {} : { scimType }), detail };
}
