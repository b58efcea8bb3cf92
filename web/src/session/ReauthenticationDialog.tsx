import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { onReauthenticationNeeded } from '../api/client';

interface Pending {
  retry: boolean;
  resolve(password: string | undefined): void;
}

/**
 * The dialog the server's reauthentication answer opens: the person confirms the change with their
 * password and it is sent again; a wrong password says so and changes nothing.
 */
export function ReauthenticationDialog() {
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
