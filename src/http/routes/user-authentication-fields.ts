import { Type } from 'typebox';
import type { AuthenticationInput } from '../../directory/index.js';
import { definedOnly } from '../../lib/defined-only.js';
import { RecordId } from '../schemas.js';

/**
 * How a user signs in, as POST and PATCH /users take it (docs/authentication.md#single-sign-on-openid-connect):
 * `sso` with the provider's id removes the password; administrators only.
 */
export const AuthenticationFields = {
  authentication_method: Type.Optional(Type.String({ maxLength: 64, description: '`password`, or `sso` (with sso_strategy_id): signs in at that provider only and has no password' })),
  sso_strategy_id: Type.Optional(Type.Union([RecordId({ minimum: 1 }), Type.Null()], { description: 'the sign-in provider of an sso user (GET /sso_providers)' })),
};

export function authenticationInput(body: { authentication_method?: string; sso_strategy_id?: number | null }): AuthenticationInput {
  return definedOnly({ method: body.authentication_method, ssoStrategyId: body.sso_strategy_id });
}
