import type { HistoryAction, HistoryInterface, HistoryRecord } from '../api/history';

/** What each recorded action is called on screen. */
const ACTION_LABELS: Readonly<Record<HistoryAction, string>> = {
  login: 'Signed in',
  failedlogin: 'Sign-in failed',
  logout: 'Signed out',
  failedreauth: 'Password confirmation failed',
  create: 'Uploaded',
  read: 'Downloaded',
  update: 'Changed',
  destroy: 'Deleted',
  move: 'Moved',
  copy: 'Copied',
  archived_delete: 'Deleted (archived)',
  user_create: 'Created user',
  user_update: 'Changed user',
  user_destroy: 'Deleted user',
  group_create: 'Created group',
  group_update: 'Changed group',
  group_destroy: 'Deleted group',
  permission_create: 'Granted permission',
  permission_destroy: 'Removed permission',
  api_key_create: 'Created API key',
  api_key_update: 'Changed API key',
  api_key_destroy: 'Deleted API key',
  public_key_create: 'Added SSH key',
  public_key_update: 'Changed SSH key',
  public_key_destroy: 'Deleted SSH key',
  workspace_create: 'Created Workspace',
  workspace_update: 'Changed Workspace',
  workspace_destroy: 'Deleted Workspace',
  site_update: 'Changed site settings',
  partner_create: 'Created Partner',
  partner_update: 'Changed Partner',
  partner_destroy: 'Deleted Partner',
};

/** Why a sign-in or a password confirmation failed, in a few words. */
const FAILURE_LABELS: Readonly<Record<string, string>> = {
  password_mismatch: 'wrong password',
  username_not_found: 'unknown user name',
  locked_out: 'account locked',
  disabled: 'account disabled',
  rate_limited: 'too many attempts',
};

export const INTERFACE_LABELS: Readonly<Record<HistoryInterface, string>> = {
  web: 'Web',
  restapi: 'REST API',
  scim: 'SCIM',
  dav: 'WebDAV',
  sftp: 'SFTP',
  cli: 'Command line',
};

/** The value of the action filter that asks for every sign-in record (`GET /history/login`). */
export const ALL_SIGN_INS = 'sign-ins';

/** The action filter's choices, grouped as a person looks for them. */
export const ACTION_GROUPS: readonly { group: string; items: { value: string; label: string }[] }[] = [
  { group: 'Sign-ins', items: [{ value: ALL_SIGN_INS, label: 'Any sign-in or sign-out' }, ...options(['login', 'failedlogin', 'logout', 'failedreauth'])] },
  { group: 'Files', items: [{ value: 'create', label: 'Uploaded or created folder' }, ...options(['read', 'update', 'destroy', 'move', 'copy'])] },
  { group: 'Users & groups', items: options(['user_create', 'user_update', 'user_destroy', 'group_create', 'group_update', 'group_destroy']) },
  { group: 'Partners', items: options(['partner_create', 'partner_update', 'partner_destroy']) },
  { group: 'Permissions', items: options(['permission_create', 'permission_destroy']) },
  { group: 'Keys', items: options(['api_key_create', 'api_key_update', 'api_key_destroy', 'public_key_create', 'public_key_update', 'public_key_destroy']) },
  { group: 'Workspaces & site', items: options(['workspace_create', 'workspace_update', 'workspace_destroy', 'site_update']) },
];

function options(actions: HistoryAction[]): { value: string; label: string }[] {
  return actions.map((value) => ({ value, label: ACTION_LABELS[value] }));
}

function known<T extends string>(labels: Readonly<Record<T, string>>, value: string): value is T {
  return Object.hasOwn(labels, value);
}

/** An action's label; one this console does not know yet is shown as the server names it. */
export function actionLabel(action: string): string {
  return known(ACTION_LABELS, action) ? ACTION_LABELS[action] : action;
}

/**
 * The label of a record's action, with the reason of a failure: "Sign-in failed (wrong password)".
 * Files.com's `create` is both an upload and a new folder; the record's targets tell which.
 */
export function recordLabel(record: Pick<HistoryRecord, 'action' | 'failure_type' | 'targets'>): string {
  const label = record.action === 'create' && record.targets?.['type'] === 'directory' ? 'Created folder' : actionLabel(record.action);
  const failure = record.failure_type;
  if (failure === null || failure === 'none') return label;
  return `${label} (${FAILURE_LABELS[failure] ?? failure.replaceAll('_', ' ')})`;
}

export function interfaceLabel(value: string | null): string {
  if (value === null) return '—';
  return known(INTERFACE_LABELS, value) ? INTERFACE_LABELS[value] : value;
}
