import { Alert, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { shareBundle } from '../api/bundles';
import { ApiError } from '../api/client';
import { addressesOf } from './share-words';

/**
 * "Send to": records the people a link is for (`POST /bundles/<id>/share`). Atrium sends no mail,
 * and says so before anything is typed: the person hands the link over themselves.
 */
export function SendTo({ bundleId, onRecorded }: { bundleId: number; onRecorded?(addresses: string[]): void }) {
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [recorded, setRecorded] = useState<string[] | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const addresses = addressesOf(to);
    setError(undefined);
    setRecorded(undefined);
    if (addresses.length === 0) {
      setError('Type at least one email address.');
      return;
    }
    setBusy(true);
    try {
      await shareBundle(bundleId, addresses, note.trim());
      setRecorded(addresses);
      setTo('');
      setNote('');
      onRecorded?.(addresses);
    } catch (caught) {
      const fields = caught instanceof ApiError ? Object.values(caught.fieldErrors).flat() : [];
      setError([caught instanceof Error ? caught.message : 'The recipients were not recorded.', ...fields].join(' '));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Send to">
      <Stack gap="xs">
        <Text fw={600} size="sm">Send to</Text>
        <Text size="sm">
          Atrium sends no email yet: copy the link and send it yourself. The addresses you add here are only recorded, so the link shows whom it was for.
        </Text>
        <Textarea label="Email addresses" description="Separated by commas or new lines" autosize minRows={1} value={to} onChange={(e) => setTo(e.currentTarget.value)} error={error} />
        <TextInput label="Note" description="Kept with the recipients, for you and the administrators" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        {recorded !== undefined && (
          <Alert color="blue" role="status" style={{ wordBreak: 'break-word' }}>Recorded as recipients: {recorded.join(', ')}. Nothing was sent to them.</Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" variant="default" loading={busy}>Record recipients</Button>
        </Group>
      </Stack>
    </form>
  );
}
