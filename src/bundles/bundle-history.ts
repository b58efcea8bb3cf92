import type { HistoryAction, HistoryEvent } from '../history/index.js';
import type { Bundle, BundlePath } from '../repositories/bundles.js';
import type { BundleRecipient } from '../repositories/bundle-activity.js';

// The History records of share links (docs/history.md): each belongs to the link's Workspace, so
// that Workspace's administrators read it. A link's password is never recorded, only whether it
// has one; its code is, as it is no secret from those who read History.

/** The fields as History keeps them: Files.com's names. */
function bundleRecord(bundle: Bundle, paths: readonly BundlePath[]): Record<string, unknown> {
  return {
    workspace_id: bundle.workspaceId, user_id: bundle.userId, code: bundle.code, ...bundle.settings,
    password_protected: bundle.passwordHash !== null, paths: paths.map((p) => p.path),
  };
}

const label = (bundle: Bundle) => bundle.settings.internal_name ?? bundle.code;

export function bundleCreated(bundle: Bundle, paths: readonly BundlePath[]): HistoryEvent {
  return bundleEvent('bundle_create', bundle, `Created share link ${label(bundle)}`, { id: bundle.id, ...bundleRecord(bundle, paths) });
}

export function bundleDeleted(bundle: Bundle, paths: readonly BundlePath[]): HistoryEvent {
  return bundleEvent('bundle_destroy', bundle, `Deleted share link ${label(bundle)}`, { id: bundle.id, ...bundleRecord(bundle, paths) });
}

/** A change: the fields before and after; a new password only as `password_protected` and the word. */
export function bundleUpdated(before: { bundle: Bundle; paths: readonly BundlePath[] }, after: { bundle: Bundle; paths: readonly BundlePath[] }): HistoryEvent {
  const was = bundleRecord(before.bundle, before.paths);
  const is = bundleRecord(after.bundle, after.paths);
  const names = Object.keys(is).filter((name) => JSON.stringify(was[name]) !== JSON.stringify(is[name]));
  const passwordChanged = before.bundle.passwordHash !== after.bundle.passwordHash && after.bundle.passwordHash !== null && before.bundle.passwordHash !== null;
  const changed = [...names, ...(passwordChanged ? ['password'] : [])];
  return bundleEvent('bundle_update', after.bundle, `Changed share link ${label(after.bundle)}: ${changed.join(', ')}`, {
    id: after.bundle.id, code: after.bundle.code, changed,
    before: Object.fromEntries(names.map((name) => [name, was[name]])),
    after: Object.fromEntries(names.map((name) => [name, is[name]])),
  });
}

/** A link shared with people: the recipients newly recorded. */
export function bundleShared(bundle: Bundle, recipients: readonly BundleRecipient[], note: string | null): HistoryEvent {
  return bundleEvent('bundle_share', bundle, `Shared share link ${label(bundle)} with ${recipients.map((r) => r.recipient).join(', ')}`, {
    id: bundle.id, code: bundle.code, note,
    recipients: recipients.map((r) => ({ recipient: r.recipient, name: r.name, company: r.company })),
  });
}

function bundleEvent(action: HistoryAction, bundle: Bundle, display: string, targets: Record<string, unknown>): HistoryEvent {
  return { action, workspaceId: bundle.workspaceId, display, targets };
}
