import type { HistoryAction, HistoryEvent } from '../history/index.js';
import type { SsoLink } from '../repositories/sso-links.js';
import type { SsoProvider } from '../repositories/sso-providers.js';

// The History records of single sign-on's configuration (docs/history.md): providers are the
// site's (site-level records); a link belongs to its user's Workspace. Never a client secret: its
// change is recorded as the word.

/** A provider's fields as History keeps them. */
export function providerRecord(provider: SsoProvider): Record<string, unknown> {
  return {
    label: provider.label,
    issuer_url: provider.issuerUrl,
    client_id: provider.clientId,
    scopes: provider.scopes,
    username_claim: provider.usernameClaim,
    group_claim: provider.groupClaim,
    group_mappings: provider.groupMappings.map((m) => `${m.claimValue} -> ${m.groupId}`).join(', '),
    provision_users: provider.provisionUsers,
    workspace_id: provider.workspaceId,
    enabled: provider.enabled,
    display_on_login_page: provider.displayOnLoginPage,
  };
}

function providerEvent(action: HistoryAction, provider: SsoProvider, display: string, targets: Record<string, unknown>): HistoryEvent {
  return { action, workspaceId: null, display, targets };
}

export function providerCreated(provider: SsoProvider): HistoryEvent {
  return providerEvent('sso_provider_create', provider, `Added sign-in provider ${provider.label}`, { id: provider.id, ...providerRecord(provider) });
}

export function providerDeleted(provider: SsoProvider): HistoryEvent {
  return providerEvent('sso_provider_destroy', provider, `Removed sign-in provider ${provider.label}`, { id: provider.id, ...providerRecord(provider) });
}

export function providerUpdated(before: SsoProvider, after: SsoProvider, secretChanged: boolean): HistoryEvent {
  const was = providerRecord(before);
  const is = providerRecord(after);
  const names = Object.keys(is).filter((name) => was[name] !== is[name]);
  const changed = [...names, ...(secretChanged ? ['client_secret'] : [])];
  return providerEvent('sso_provider_update', after, `Changed sign-in provider ${after.label}: ${changed.join(', ')}`, {
    id: after.id, label: after.label, changed,
    before: Object.fromEntries(names.map((name) => [name, was[name]])),
    after: Object.fromEntries(names.map((name) => [name, is[name]])),
  });
}

export function linkEvent(action: 'sso_link_create' | 'sso_link_destroy', link: SsoLink, provider: { id: number; label: string }, workspaceId: number): HistoryEvent {
  const verb = action === 'sso_link_create' ? 'Linked' : 'Unlinked';
  return {
    action,
    workspaceId,
    display: `${verb} ${link.username} ${action === 'sso_link_create' ? 'to' : 'from'} an account at ${provider.label}`,
    targets: { id: link.id, user_id: link.userId, username: link.username, sso_provider: { id: provider.id, label: provider.label }, issuer: link.issuer, subject: link.subject },
  };
}
