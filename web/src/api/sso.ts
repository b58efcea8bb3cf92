import { api, headerBrand } from './client';

// Single sign-on with OpenID Connect (docs/authentication.md#single-sign-on-openid-connect).

/** A provider the sign-in page offers. */
export interface SignInChoice {
  id: number;
  label: string;
}

/** Where the sign-in page's button sends the browser: the server redirects it to the provider. */
export function signInAddress(providerId: number, next: string): string {
  return `/api/public/sso/providers/${providerId}/sign_in?next=${encodeURIComponent(next)}`;
}

/** The providers shown on the sign-in page; none when the server cannot say (the password form still works). */
export async function listSignInChoices(): Promise<SignInChoice[]> {
  try {
    const response = await fetch('/api/public/sso/providers', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    return response.ok ? ((await response.json()) as SignInChoice[]) : [];
  } catch {
    return [];
  }
}

export interface GroupMapping {
  claim_value: string;
  group_id: number;
}

export interface SsoProvider {
  id: number;
  label: string;
  issuer_url: string;
  client_id: string;
  client_secret_set: boolean;
  scopes: string;
  username_claim: string;
  group_claim: string | null;
  group_mappings: GroupMapping[];
  provision_users: boolean;
  workspace_id: number;
  enabled: boolean;
  display_on_login_page: boolean;
  redirect_uri: string;
  user_count: number;
}

/** What the provider form sends; a client secret only when one was typed (it is never read back). */
export type SsoProviderSettings = Omit<SsoProvider, 'id' | 'client_secret_set' | 'redirect_uri' | 'user_count'> & { client_secret?: string | null };

export interface SsoLink {
  id: number;
  user_id: number;
  username: string;
  subject: string;
  last_sign_in_at: string | null;
}

// Site Administrators at the site level: asked in their own Workspace, whichever is selected.
const home = { homeContext: true } as const;

export async function listProviders(): Promise<SsoProvider[]> {
  return (await api<SsoProvider[]>('GET', '/sso_providers', { ...home, query: { per_page: 1000 } })).data;
}

export async function createProvider(settings: SsoProviderSettings): Promise<SsoProvider> {
  return (await api<SsoProvider>('POST', '/sso_providers', { ...home, body: settings })).data;
}

export async function updateProvider(id: number, changes: Partial<SsoProviderSettings>): Promise<SsoProvider> {
  return (await api<SsoProvider>('PATCH', `/sso_providers/${id}`, { ...home, body: changes })).data;
}

export async function deleteProvider(id: number): Promise<void> {
  await api('DELETE', `/sso_providers/${id}`, home);
}

export async function listLinks(providerId: number): Promise<SsoLink[]> {
  return (await api<SsoLink[]>('GET', `/sso_providers/${providerId}/links`, home)).data;
}

export async function linkAccount(providerId: number, userId: number, subject: string): Promise<SsoLink> {
  return (await api<SsoLink>('POST', `/sso_providers/${providerId}/links`, { ...home, body: { user_id: userId, subject } })).data;
}

export async function unlinkAccount(providerId: number, linkId: number): Promise<void> {
  await api('DELETE', `/sso_providers/${providerId}/links/${linkId}`, home);
}

/** The groups of one Workspace, to map a provider's group claim onto. */
export async function groupsOfWorkspace(workspaceId: number): Promise<{ id: number; name: string }[]> {
  return (await api<{ id: number; name: string }[]>('GET', '/groups', {
    ...home, query: { per_page: 1000 }, headers: { [`X-${headerBrand()}-Workspace-Id`]: String(workspaceId) },
  })).data;
}

/**
 * Confirms the person at their provider before a sensitive change: the browser goes there (a fresh
 * sign-in is asked) and comes back to `next`; for a few minutes after, the server takes the
 * confirmation in place of a password.
 */
export async function confirmAtProvider(next: string): Promise<never> {
  const { data } = await api<{ authorization_url: string }>('POST', '/sso_reauthentications', { homeContext: true, body: { next } });
  window.location.assign(data.authorization_url);
  // The page is leaving.
  return new Promise<never>(() => undefined);
}
