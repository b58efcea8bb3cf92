import { Alert, Button, Center, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { NewPasswordFields, useNewPassword } from '../account/NewPasswordFields';
import { replacePassword } from '../api/account';
import { ApiError } from '../api/client';
import { useSession } from './session';

/**
 * The one screen of a person whose administrator asked for a new password (require_password_change):
 * the current password and a new one, twice. Until it is changed the server answers nothing else
 * to this session, so nothing else is offered; signing out is.
 */
export function RequiredPasswordChange() {
  const { profile, signOut, passwordChanged } = useSession();
  const [current, setCurrent] = useState('');
  const newPassword = useNewPassword();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (profile === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      await replacePassword(profile.userId, current, newPassword.password);
      passwordChanged();
    } catch (caught) {
      setError(caught instanceof ApiError && caught.type === 'not-authorized/reauthentication-failed'
        ? 'The current password is not right. Nothing was changed.'
        : caught instanceof Error ? caught.message : 'The password was not changed.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <form onSubmit={submit} aria-labelledby="password-change-title">
          <Stack>
            <Title order={1} size="h2" id="password-change-title">Choose a new password</Title>
            <Text size="sm">An administrator asked you to set a new password before you continue.</Text>
            {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
            <PasswordInput label="Current password" name="current-password" autoComplete="current-password" required value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)} autoFocus />
            <NewPasswordFields state={newPassword} />
            <Group justify="space-between">
              <Button variant="default" onClick={() => void signOut()}>Sign out</Button>
              <Button type="submit" loading={busy} disabled={current === '' || !newPassword.ready}>Change password</Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
