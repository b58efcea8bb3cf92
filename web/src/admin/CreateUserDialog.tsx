import { Alert, Button, Checkbox, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { isTooShort, passwordRule, usePasswordMinimum } from '../account/NewPasswordFields';
import { createUser, type NewUser } from '../api/users';

/**
 * A new user of the current Workspace. The flags offered are the ones the rules allow here:
 * Site Administrator only to a Site Administrator, for Workspace 0 users; Workspace Administrator
 * only in a Custom Workspace.
 */
export function CreateUserDialog({ onClose, onCreated, offerSiteAdmin, offerWorkspaceAdmin, workspaceName }: {
  onClose(): void;
  /** The Workspace the user is created in (the one the console works in), said before anything is sent. */
  workspaceName: string;
  onCreated(): void;
  offerSiteAdmin: boolean;
  offerWorkspaceAdmin: boolean;
}) {
  const [user, setUser] = useState<NewUser>({ username: '', password: '', name: '', email: '' });
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<NewUser>) => setUser((u) => ({ ...u, ...change }));
  const minimum = usePasswordMinimum();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await createUser(user);
      onCreated();
      onClose();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The user was not created.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title="New user">
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">The user is created in <strong>{workspaceName}</strong>.</Text>
          {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
          <TextInput label="User name" required value={user.username} onChange={(e) => set({ username: e.currentTarget.value })} data-autofocus />
          <PasswordInput label="Password" required value={user.password} autoComplete="new-password" onChange={(e) => set({ password: e.currentTarget.value })}
            {...passwordRule(user.password ?? '', minimum)} />
          <TextInput label="Full name" value={user.name ?? ''} onChange={(e) => set({ name: e.currentTarget.value })} />
          <TextInput label="Email" type="email" value={user.email ?? ''} onChange={(e) => set({ email: e.currentTarget.value })} />
          {offerSiteAdmin && <Checkbox label="Site Administrator" checked={user.site_admin === true} onChange={(e) => set({ site_admin: e.currentTarget.checked })} />}
          {offerWorkspaceAdmin && <Checkbox label="Workspace Administrator" checked={user.workspace_admin === true} onChange={(e) => set({ workspace_admin: e.currentTarget.checked })} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy} disabled={isTooShort(user.password ?? '', minimum)}>Create user</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
