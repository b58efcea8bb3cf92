import { Alert, Button, PasswordInput, Stack, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { changePassword, getSitePolicies } from '../api/account';

export function PasswordForm({ userId }: { userId: number }) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const [minimum, setMinimum] = useState<number | undefined>();
  useEffect(() => {
    getSitePolicies().then((policies) => setMinimum(policies.password_min_length), () => undefined);
  }, []);
  const mismatch = again !== '' && again !== password;
  const tooShort = minimum !== undefined && password !== '' && [...password].length < minimum;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setResult(undefined);
    try {
      await changePassword(userId, password);
      setResult({ ok: true, text: 'Your password was changed. Your other sessions were signed out.' });
      setPassword('');
      setAgain('');
    } catch (caught) {
      setResult({ ok: false, text: caught instanceof Error ? caught.message : 'The password was not changed.' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-labelledby="password-title">
      <Stack maw={420}>
        <Title order={2} size="h3" id="password-title">Password</Title>
        {result !== undefined && <Alert color={result.ok ? 'teal' : 'red'} role={result.ok ? 'status' : 'alert'}>{result.text}</Alert>}
        <PasswordInput label="New password" name="new-password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)}
          description={minimum === undefined ? undefined : `At least ${minimum} characters.`} error={tooShort ? `Use at least ${minimum} characters.` : undefined} />
        <PasswordInput label="New password again" name="new-password-again" autoComplete="new-password" required value={again}
          onChange={(e) => setAgain(e.currentTarget.value)} error={mismatch ? 'The two passwords differ.' : undefined} />
        <Button type="submit" loading={busy} disabled={password === '' || again !== password || tooShort} w="fit-content">Change password</Button>
      </Stack>
    </form>
  );
}
