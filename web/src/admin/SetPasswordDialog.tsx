import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { isTooShort, passwordRule, usePasswordMinimum } from '../account/NewPasswordFields';
import { updateUser, type User } from '../api/users';

export function SetPasswordDialog({ user, onClose }: { user: User; onClose(): void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const minimum = usePasswordMinimum();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await updateUser(user.id, { password });
      onClose();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The password was not set.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title="Set password">
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>A new password for <strong>{user.username}</strong>. Their sessions end.</Text>
          {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
          <PasswordInput label="New password" required autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} data-autofocus
            {...passwordRule(password, minimum)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy} disabled={password === '' || isTooShort(password, minimum)}>Set password</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
