import { ApiError, type ModelErrors } from './api-error.js';

/**
 * Named constructors for every error type Atrium answers with, so a type string is spelled once.
 * The list of types and when each is used is in docs/errors.md.
 */
export const errors = {
  invalidBody: (message = 'The request body must be a JSON object.') => new ApiError('bad-request/invalid-body', message),
  paramsRequired: (modelErrors: ModelErrors) =>
    new ApiError('bad-request/request-params-required', describe('Required parameters are missing', modelErrors), { modelErrors }),
  paramsInvalid: (modelErrors: ModelErrors) =>
    new ApiError('bad-request/request-params-invalid', describe('Parameters are invalid', modelErrors), { modelErrors }),
  invalidPath: (message: string) => new ApiError('bad-request/invalid-path', message),
  invalidCursor: () => new ApiError('bad-request/invalid-cursor', 'The cursor is malformed or belongs to another listing.'),
  invalidWorkspaceIdHeader: (message: string) => new ApiError('bad-request/invalid-workspace-id-header', message),
  unsupportedMediaType: (contentType: string) =>
    new ApiError('bad-request/unsupported-media-type', `Content-Type "${contentType}" is not supported; send application/json.`),
  bodyTooLarge: () => new ApiError('bad-request/request-body-too-large', 'The request body is too large.'),
  methodNotAllowed: (method: string) => new ApiError('bad-request/method-not-allowed', `Method ${method} is not allowed here.`),

  authenticationRequired: () =>
    new ApiError('not-authenticated/authentication-required', 'Authentication required: send an API key or a session id.'),
  invalidCredentials: () =>
    new ApiError('not-authenticated/invalid-credentials', 'The API key or session id could not be validated.'),
  invalidSession: () =>
    new ApiError('not-authenticated/invalid-session', 'The session has ended or timed out; create a new session.'),

  siteAdminRequired: () => new ApiError('not-authorized/site-admin-required', 'Only a Site Administrator may do this.'),
  insufficientPermissionForParams: (message: string) =>
    new ApiError('not-authorized/insufficient-permission-for-params', message),
  apiKeyIsFilesOnly: () =>
    new ApiError('not-authorized/api-key-is-files-only', 'A files_only API key reaches file and folder operations only.'),

  notFound: (message = 'Not found.') => new ApiError('not-found', message),
  workspaceNotFound: () => new ApiError('not-found/workspace-not-found', 'Workspace not found.'),

  serviceUnavailable: () =>
    new ApiError('service-unavailable/database-unavailable', 'The database cannot be reached; try again shortly.'),
} as const;

function describe(prefix: string, modelErrors: ModelErrors): string {
  const details = Object.entries(modelErrors).map(([field, messages]) => `${field} ${messages.join(', ')}`);
  return details.length === 0 ? `${prefix}.` : `${prefix}: ${details.join('; ')}.`;
}
