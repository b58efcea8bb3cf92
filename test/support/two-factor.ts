import { generate } from 'otplib';
import { expect } from 'vitest';
import type { ApiClient } from './http-client.js';
import type { TestClock } from './test-clock.js';

/** The authenticator app's code at the clock's moment, `steps` 30-second steps from it. */
export function authenticatorCode(secret: string, clock: TestClock, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(clock.now() / 1000) + steps * 30 });
}

/**
 * Sets up an authenticator app for the user the way a person does (a session, reauthentication,
 * the first code), through the REST API; answers the secret and the recovery codes.
 */
export async function enrolAuthenticator(api: ApiClient, clock: TestClock, session: string, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await api.post('/2fa/totp', {}, { session, headers: { 'X-Service-Reauthentication': `password:${password}` } });
  expect(started.status, started.text).toBe(201);
  const secret = started.body.secret as string;
  const confirmed = await api.post('/2fa/totp/confirm', { otp: await authenticatorCode(secret, clock) }, { session });
  expect(confirmed.status, confirmed.text).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recovery_codes as string[] };
}

/** A session of the user from its password, for a user with no second factor yet. */
export async function passwordSession(api: ApiClient, username: string, password: string): Promise<string> {
  const response = await api.post('/sessions', { username, password });
  expect(response.status, response.text).toBe(201);
  return response.body.id as string;
}
