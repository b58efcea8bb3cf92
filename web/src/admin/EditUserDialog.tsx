import { Alert, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { updateUser, type Require2fa, type User, type UserChanges } from '../api/users';
import { methodsInWords } from '../two-factor/words';

const REQUIRE_2FA: { value: Require2fa; label: string }[] = [
  { value: 'use_system_setting', label: "Use the site's setting" },
  { value: 'always_require', label: 'Always' },
  { value: 'never_require', label: 'Never' },
];

/** Exempting a user from the site's requirement is a Site Administrator's alone: for anyone else "Never" is shown, not offered. */
function requireChoices(callerIsSiteAdmin: boolean) {
  return REQUIRE_2FA.map((choice) => (choice.value === 'never_require' && !callerIsSiteAdmin
    ? { ...choice, label: 'Never (only a Site Administrator may exempt a user)', disabled: true }
    : choice));
}

/**
 * A user's details and flags, as the contract lets the caller change them: `site_admin` only by a
 * Site Administrator and only for a Workspace 0 user; `workspace_admin` only for a Custom Workspace
 * user; a Partner user has neither, only `partner_admin`. A flag the caller may not change is shown disabled with the reason. Only what changed is
 * sent, so an unchanged flag asks for no reauthentication; a changed one opens the password dialog.
 */
export function EditUserDialog({ user, callerIsSiteAdmin, onClose, onSaved }: {
  user: User;
  callerIsSiteAdmin: boolean;
  onClose(): void;
  onSaved(): void;
}) {
  const [form, setForm] = useState({
    username: user.username, name: user.name, email: user.email,
    site_admin: user.site_admin, workspace_admin: user.workspace_admin, disabled: user.disabled, partner_admin: user.partner_admin,
    require_2fa: user.require_2fa,
  });
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<typeof form>) => setForm((f) => ({ ...f, ...change }));
  const inDefaultWorkspace = user.workspace_id === 0;
  const partnerUser = user.partner_id != null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const changes: UserChanges = {};
    if (form.username.trim() !== user.username) changes.username = form.username.trim();
    if (form.name !== user.name) changes.name = form.name;
    if (form.email !== user.email) changes.email = form.email;
    if (form.site_admin !== user.site_admin) changes.site_admin = form.site_admin;
    if (form.workspace_admin !== user.workspace_admin) changes.workspace_admin = form.workspace_admin;
    if (form.disabled !== user.disabled) changes.disabled = form.disabled;
    if (form.partner_admin !== user.partner_admin) changes.partner_admin = form.partner_admin;
    if (form.require_2fa !== user.require_2fa) changes.require_2fa = form.require_2fa;
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await updateUser(user.id, changes);
      onSaved();
      onClose();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The user was not changed.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={`Edit ${user.username}`}>
      <form onSubmit={submit}>
        <Stack>
          {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
          <TextInput label="User name" required value={form.username} onChange={(e) => set({ username: e.currentTarget.value })} data-autofocus />
          <TextInput label="Full name" value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} />
          <TextInput label="Email" type="email" value={form.email} onChange={(e) => set({ email: e.currentTarget.value })} />
          {/* A Partner user holds no administrator flag; the one role it may have is its Partner's. */}
          {partnerUser ? (
            <Checkbox label="Partner Admin" checked={form.partner_admin}
              description={`Manages the users of ${user.partner_name ?? 'their Partner'}, as far as the Partner's settings allow`}
              onChange={(e) => set({ partner_admin: e.currentTarget.checked })} />
          ) : inDefaultWorkspace ? (
            <Checkbox label="Site Administrator" checked={form.site_admin} disabled={!callerIsSiteAdmin}
              description={callerIsSiteAdmin ? 'Authority over every Workspace and the site settings' : 'Only a Site Administrator may change this.'}
              onChange={(e) => set({ site_admin: e.currentTarget.checked })} />
          ) : (
            <Checkbox label="Workspace Administrator" checked={form.workspace_admin}
              description="Administers this user's Workspace: its folders, users, groups, permissions and keys"
              onChange={(e) => set({ workspace_admin: e.currentTarget.checked })} />
          )}
          {/* Shown once the server reports the user's rule (every server with two-factor authentication does). */}
          {user.require_2fa !== undefined && (
            <Select label="Two-factor authentication required" allowDeselect={false} data={requireChoices(callerIsSiteAdmin)} value={form.require_2fa ?? 'use_system_setting'}
              description={`${user.active_2fa === true ? `They use ${methodsInWords(user.type_of_2fa, 'in a sentence')}` : 'They have not set it up'}. Always: they must use it, and set it up at their next sign-in if they have not. Never: the site's requirement does not apply to them.`}
              onChange={(value) => set({ require_2fa: REQUIRE_2FA.find((option) => option.value === value)?.value ?? 'use_system_setting' })} />
          )}
          <Checkbox label="Disabled" checked={form.disabled} description="A disabled user cannot sign in, and their sessions and keys stop working"
            onChange={(e) => set({ disabled: e.currentTarget.checked })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>Save</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
