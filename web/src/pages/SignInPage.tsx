import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { safeNext } from '../session/RequireSession';
import { useSession } from '../session/session';

export function SignInPage() {
  const { profile, notice, signIn } = useSession();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  if (profile !== undefined) return <Navigate to={safeNext(params.get('next'))} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(username, password);
    } catch (caught) {
      // The server's own words: one message for every wrong username or password, another while locked.
      setError(caught instanceof ApiError ? caught.message : 'The server could not be reached. Try again.');
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <form onSubmit={submit} aria-labelledby="sign-in-title">
          <Stack>
            <Title order={1} size="h2" id="sign-in-title">Sign in to Atrium</Title>
            {notice !== undefined && error === undefined && <Alert color="blue" role="status">{notice}</Alert>}
            {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
            <TextInput label="Username" name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.currentTarget.value)} autoFocus />
            <PasswordInput label="Password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <Button type="submit" loading={busy}>Sign in</Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
