import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';

interface ActionDialogProps {
  opened: boolean;
  onClose(): void;
}

/** Runs `action`, keeping the dialog open with the server's message when it fails. */
function useAction(onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      onClose();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'That did not work.');
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run, reset: () => setError(undefined) };
}

export function NameDialog({ opened, onClose, title, label, initial, submitLabel, onSubmit }: ActionDialogProps & {
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  onSubmit(value: string): Promise<void>;
}) {
  const [value, setValue] = useState(initial);
  const { busy, error, run, reset } = useAction(onClose);
  function submit(event: FormEvent) {
    event.preventDefault();
    void run(() => onSubmit(value.trim()));
  }
  return (
    <Modal opened={opened} onClose={() => { reset(); onClose(); }} title={title}>
      <form onSubmit={submit}>
        <Stack>
          {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
          <TextInput label={label} required value={value} onChange={(e) => setValue(e.currentTarget.value)} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy} disabled={value.trim() === ''}>{submitLabel}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function ConfirmDialog({ opened, onClose, title, confirmLabel, onConfirm, children }: ActionDialogProps & {
  title: string;
  confirmLabel: string;
  onConfirm(): Promise<void>;
  children: ReactNode;
}) {
  const { busy, error, run, reset } = useAction(onClose);
  return (
    <Modal opened={opened} onClose={() => { reset(); onClose(); }} title={title}>
      <Stack>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        <Text style={{ overflowWrap: 'anywhere' }}>{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>Cancel</Button>
          {/* Red's shade 9: white on the theme's default red is below a 4.5:1 contrast ratio. */}
          <Button color="red.9" loading={busy} onClick={() => void run(onConfirm)}>{confirmLabel}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
