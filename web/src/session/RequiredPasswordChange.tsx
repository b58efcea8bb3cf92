import { Alert, Button, Center, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { getSitePolicies, replacePassword } from '../api/account';
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
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [minimum, setMinimum] = useState<number | undefined>();
  useEffect(() => {
    getSitePolicies().then((policies) => setMinimum(policies.password_min_length), () => undefined);
  }, []);
  const mismatch = again !== '' && again !== password;
  const tooShort = minimum !== undefined && password !== '' && [...password].length < minimum;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (profile === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      await replacePassword(profile.userId, current, password);
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
            <PasswordInput label="New password" name="new-password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)}
              description={minimum === undefined ? undefined : `At least ${minimum} characters.`} error={tooShort ? `Use at least ${minimum} characters.` : undefined} />
            <PasswordInput label="New password again" name="new-password-again" autoComplete="new-password" required value={again}
              onChange={(e) => setAgain(e.currentTarget.value)} error={mismatch ? 'The two passwords differ.' : undefined} />
            <Group justify="space-between">
              <Button variant="default" onClick={() => void signOut()}>Sign out</Button>
              <Button type="submit" loading={busy} disabled={current === '' || password === '' || again !== password || tooShort}>Change password</Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
