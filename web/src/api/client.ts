/**
 * The console's only way to the server: the public REST API, with the session in an HttpOnly
 * cookie the browser sends by itself. Every request carries the console header, without which the
 * server ignores the cookie (a cross-site page cannot add it).
 */
import { ApiError } from './api-error';

export { ApiError };

export const API_ROOT = '/api/rest/v1';
const CONSOLE_HEADER = 'X-Atrium-Console';

/** The answers that mean the console's session is gone (ended, timed out, or never there). */
const SESSION_GONE = new Set([
  'not-authenticated/invalid-session',
  'not-authenticated/invalid-credentials',
  'not-authenticated/authentication-required',
  // Too many wrong passwords in the reauthentication dialog end the session.
  'rate-limited/reauthentication-rate-limited',
]);

const REAUTHENTICATION_NEEDED = new Set(['bad-request/reauthentication-needed-fields', 'not-authorized/reauthentication-needed-action']);
const REAUTHENTICATION_FAILED = 'not-authorized/reauthentication-failed';

/**
 * Asks the person for their password before a change the server wants confirmed; `retry` says the
 * last one was wrong. Resolves undefined when they cancel.
 */
export type PasswordPrompt = (retry: boolean) => Promise<string | undefined>;
let passwordPrompt: PasswordPrompt | undefined;

export function onReauthenticationNeeded(prompt: PasswordPrompt | undefined): void {
  passwordPrompt = prompt;
}

/**
 * Whether the signed-in user signs in at a provider (single sign-on) and so confirms a change
 * there rather than with a password: a change is first sent with the confirmation the server may
 * hold from a recent sign-in at the provider (`sso`), and the prompt is shown only when it holds none.
 */
let confirmsAtProvider = false;

export function setConfirmsAtProvider(value: boolean): void {
  confirmsAtProvider = value;
}

/** The reauthentication header's value that stands for a recent sign-in at the user's provider. */
const PROVIDER_CONFIRMATION = 'sso';

/** The site's header brand (`X-<Brand>-Workspace-Id`), which the server writes into the page. */
export function headerBrand(): string {
  return document.querySelector('meta[name="atrium-header-brand"]')?.getAttribute('content') || 'Service';
}

export function isSessionGone(error: unknown): boolean {
  return error instanceof ApiError && SESSION_GONE.has(error.type);
}

type SessionEndedListener = (error: ApiError) => void;
let sessionEnded: SessionEndedListener | undefined;

/** Called when a request finds the session gone, so the console can ask to sign in again. */
export function onSessionEnded(listener: SessionEndedListener | undefined): void {
  sessionEnded = listener;
}

const ACTIVITY_KEY = 'atrium.lastActivity';

/** When the server last saw this console act (kept per tab, to tell how long it was idle). */
export function lastActivity(): number | undefined {
  const value = Number(sessionStorage.getItem(ACTIVITY_KEY));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

let workspaceId: number | undefined;

/** Sends every later request in Workspace `id` (undefined: the signed-in user's own Workspace). */
export function selectWorkspace(id: number | undefined): void {
  workspaceId = id;
}

export interface ApiRequest {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Ask in the signed-in user's own Workspace, whichever is selected. */
  homeContext?: boolean;
  /** Sign-in answers 401 for a wrong password: that is not a session that ended. */
  signingIn?: boolean;
  /** The answer is plain text (a run's log), handed over as it came. */
  text?: boolean;
  /** The answer is bytes (a ZIP), handed over as a Blob. */
  blob?: boolean;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

export async function api<T>(method: string, path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  try {
    return await send<T>(method, path, request);
  } catch (error) {
    if (!(error instanceof ReauthenticationNeeded)) throw error;
    return confirmAndRepeat<T>(method, path, request, error);
  }
}

class ReauthenticationNeeded extends ApiError {}

/** The person cancelled the password the server asked for again: nothing was changed. */
export class ReauthenticationCancelled extends ApiError {}

/** Asks for the password and repeats the change with it, until it is right or the person cancels. */
async function confirmAndRepeat<T>(method: string, path: string, request: ApiRequest, needed: ReauthenticationNeeded): Promise<ApiResponse<T>> {
  const header = `X-${headerBrand()}-Reauthentication`;
  if (confirmsAtProvider) {
    try {
      return await send<T>(method, path, { ...request, headers: { ...request.headers, [header]: PROVIDER_CONFIRMATION } });
    } catch (error) {
      if (!(error instanceof ApiError && error.type === REAUTHENTICATION_FAILED)) throw error;
    }
  }
  if (passwordPrompt === undefined) throw new ApiError(needed.status, needed.type, needed.message);
  let retry = false;
  for (;;) {
    const password = await passwordPrompt(retry);
    if (password === undefined) throw new ReauthenticationCancelled(needed.status, needed.type, 'Cancelled: nothing was changed.');
    try {
      return await send<T>(method, path, { ...request, headers: { ...request.headers, [header]: `password:${password}` } });
    } catch (error) {
      if (error instanceof ApiError && error.type === REAUTHENTICATION_FAILED) {
        retry = true;
        continue;
      }
      throw error;
    }
  }
}

async function send<T>(method: string, path: string, request: ApiRequest): Promise<ApiResponse<T>> {
  const url = new URL(API_ROOT + path, window.location.origin);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { Accept: request.text === true ? 'text/plain' : 'application/json', [CONSOLE_HEADER]: '1', ...request.headers };
  if (workspaceId !== undefined && !request.signingIn && !request.homeContext) headers[`X-${headerBrand()}-Workspace-Id`] = String(workspaceId);
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  if (response.ok && request.blob === true) {
    sessionStorage.setItem(ACTIVITY_KEY, String(Date.now()));
    return { data: (await response.blob()) as T, headers: response.headers };
  }
  const text = await response.text();
  const parsed: unknown = text === '' ? undefined : safeJson(text);
  if (!response.ok) {
    const body = (parsed ?? {}) as { type?: unknown; error?: unknown; model_errors?: unknown; data?: unknown };
    const error = new ApiError(
      response.status,
      typeof body.type === 'string' ? body.type : 'unknown',
      typeof body.error === 'string' ? body.error : `The server answered ${response.status}.`,
      fieldErrorsOf(body.model_errors),
      typeof body.data === 'object' && body.data !== null && !Array.isArray(body.data) ? body.data as Record<string, unknown> : {},
    );
    if (!request.signingIn && isSessionGone(error)) sessionEnded?.(error);
    if (REAUTHENTICATION_NEEDED.has(error.type)) throw new ReauthenticationNeeded(error.status, error.type, error.message);
    throw error;
  }
  sessionStorage.setItem(ACTIVITY_KEY, String(Date.now()));
  return { data: (request.text === true ? text : parsed) as T, headers: response.headers };
}

/** An error's `model_errors` (`{field: [message, ...]}`), keeping only what has that shape. */
function fieldErrorsOf(value: unknown): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fields;
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) fields[field] = messages.filter((m): m is string => typeof m === 'string');
  }
  return fields;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A response header whose name carries the site's brand (`X-<Brand>-Cursor`): the first found. */
export function brandedHeader(headers: Headers, suffix: string): string | undefined {
  const wanted = `-${suffix.toLowerCase()}`;
  for (const [name, value] of headers) {
    if (name.startsWith('x-') && name.endsWith(wanted) && value !== '') return value;
  }
  return undefined;
}
