import { Alert, Button, Stack, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { changePassword } from '../api/account';
import { NewPasswordFields, useNewPassword } from './NewPasswordFields';

export function PasswordForm({ userId }: { userId: number }) {
  const newPassword = useNewPassword();
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setResult(undefined);
    try {
      await changePassword(userId, newPassword.password);
      setResult({ ok: true, text: 'Your password was changed. Your other sessions were signed out.' });
      newPassword.clear();
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
        <NewPasswordFields state={newPassword} />
        <Button type="submit" loading={busy} disabled={!newPassword.ready} w="fit-content">Change password</Button>
      </Stack>
    </form>
  );
}
