import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { onReauthenticationNeeded } from '../api/client';
import { confirmAtProvider } from '../api/sso';
import { useSession } from './session';

interface Pending {
  retry: boolean;
  resolve(password: string | undefined): void;
}

/**
 * The dialog the server's reauthentication answer opens: the person confirms the change with their
 * password and it is sent again; a wrong password says so and changes nothing. A user who signs in
 * at a provider has no password here: it signs in at the provider again, comes back to this page,
 * and makes the change again (for a few minutes the server takes that sign-in as confirmation).
 */
export function ReauthenticationDialog() {
  const { profile } = useSession();
  const [leaving, setLeaving] = useState<string | undefined>();
  const [pending, setPending] = useState<Pending | undefined>();
  const [password, setPassword] = useState('');
  const current = useRef<Pending | undefined>(undefined);

  useEffect(() => {
    onReauthenticationNeeded((retry) => new Promise((resolve) => {
      const next = { retry, resolve };
      current.current = next;
      setPassword('');
      setPending(next);
    }));
    return () => onReauthenticationNeeded(undefined);
  }, []);

  function finish(value: string | undefined) {
    current.current?.resolve(value);
    current.current = undefined;
    setPending(undefined);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    finish(password);
  }

  function confirmThere() {
    setLeaving('');
    confirmAtProvider(window.location.pathname + window.location.search).catch((caught: unknown) => {
      setLeaving(caught instanceof Error ? caught.message : 'The sign-in provider could not be reached.');
    });
  }

  if (profile?.authenticationMethod === 'sso') {
    return (
      <Modal opened={pending !== undefined} onClose={() => finish(undefined)} title="Confirm it is you" zIndex={400}>
        <Stack>
          <Text size="sm">This change needs you to sign in at your sign-in provider again. You will come back to this page; then make the change once more.</Text>
          {leaving !== undefined && leaving !== '' && <Alert color="red" role="alert">{leaving}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => finish(undefined)}>Cancel</Button>
            <Button onClick={confirmThere} loading={leaving === ''} data-autofocus>Sign in again</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    // Above any dialog whose action asked for it.
    <Modal opened={pending !== undefined} onClose={() => finish(undefined)} title="Confirm it is you" zIndex={400}>
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">This change needs your password.</Text>
          {pending?.retry === true && <Alert color="red" role="alert">That password is not right. Nothing was changed.</Alert>}
          <PasswordInput label="Your password" name="reauthentication-password" autoComplete="current-password" required value={password}
            onChange={(e) => setPassword(e.currentTarget.value)} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => finish(undefined)}>Cancel</Button>
            <Button type="submit" disabled={password === ''}>Confirm</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
