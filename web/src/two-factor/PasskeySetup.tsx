import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { addPasskey, passkeyCreationOptions, type Enrolled, type TwoFactorContext } from '../api/two-factor';
import { makePasskey, passkeyProblem } from './passkey-browser';
import { messageOf } from './words';

/**
 * Adding a passkey: the browser makes it (the person touches their fingerprint reader, security
 * key or phone), then they name it so they can tell it from the others, and it is saved. Naming
 * comes after the browser's dialog because the server saves the passkey and its name together.
 * `onFailure` sees a refusal first and returns true when it took care of it (an ended sign-in).
 */
export function PasskeySetup({ context, onAdded, onFailure, actions }: {
  context: TwoFactorContext;
  onAdded(result: Partial<Enrolled>): void;
  onFailure?(caught: unknown): boolean;
  actions?: ReactNode;
}) {
  const [made, setMade] = useState<unknown>();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  function failed(caught: unknown, fallback: string) {
    if (onFailure?.(caught) === true) return;
    setError(messageOf(caught, fallback));
  }

  async function make() {
    setBusy(true);
    setError(undefined);
    try {
      const options = await passkeyCreationOptions(context);
      try {
        setMade(await makePasskey(options));
      } catch (caught) {
        setError(passkeyProblem(caught));
      }
    } catch (caught) {
      failed(caught, 'The passkey could not be started. Try again.');
    } finally {
      setBusy(false);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onAdded(await addPasskey(context, name.trim(), made));
    } catch (caught) {
      failed(caught, 'The passkey was not saved. Try again.');
      setBusy(false);
    }
  }

  if (made === undefined) {
    return (
      <Stack>
        <Text size="sm">
          A passkey signs you in with this device&apos;s fingerprint, face or PIN, or with a security key, in place of a code. Your browser
          asks you to confirm; the secret part never leaves the device.
        </Text>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        <Group justify="flex-end">
          {actions}
          <Button onClick={() => void make()} loading={busy}>Make a passkey</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <form onSubmit={save} aria-label="Name the passkey">
      <Stack>
        <Text size="sm">The passkey is made. Give it a name you will recognise in your list.</Text>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        <TextInput label="Passkey name" description="For example: work laptop, phone, blue security key" required maxLength={255}
          value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus autoFocus />
        <Group justify="flex-end">
          {actions}
          <Button type="submit" loading={busy} disabled={name.trim() === ''}>Save passkey</Button>
        </Group>
      </Stack>
    </form>
  );
}
