import { Alert, Button, Code, CopyButton, Group, Modal, PasswordInput, Select, Stack, Table, Text, Textarea, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  addPublicKey, deletePublicKey, generatePublicKey, keyTypeLabel, listPublicKeys,
  type GeneratedAlgorithm, type GeneratedPublicKey, type PublicKey,
} from '../api/public-keys';
import { ConfirmDialog } from '../files/dialogs';
import { formatTime } from '../files/format';

const ALGORITHMS: { value: GeneratedAlgorithm; label: string }[] = [
  { value: 'ed25519', label: 'Ed25519 (recommended)' },
  { value: 'rsa', label: 'RSA 4096 (for old clients)' },
  { value: 'ecdsa', label: 'ECDSA P-256' },
];

function messageOf(caught: unknown, fallback: string): string {
  return caught instanceof Error ? caught.message : fallback;
}

/**
 * A user's SSH keys for SFTP sign-in (`userId` 0: the caller's own): list, add a pasted public key
 * (the server's refusal shown as it says it), generate a pair (the private key shown once, kept
 * only in this component's state until the dialog closes), delete.
 */
export function SshKeys({ userId = 0, title = 'SSH keys' }: { userId?: number; title?: string }) {
  const [keys, setKeys] = useState<PublicKey[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [keyTitle, setKeyTitle] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [generated, setGenerated] = useState<GeneratedPublicKey | undefined>();
  const [deleting, setDeleting] = useState<PublicKey | undefined>();

  const load = useCallback(() => {
    listPublicKeys(userId).then(setKeys, (caught: unknown) => setError(messageOf(caught, 'The SSH keys could not be listed.')));
  }, [userId]);
  useEffect(load, [load]);

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await addPublicKey(userId, keyTitle.trim(), publicKey);
      setKeyTitle('');
      setPublicKey('');
      load();
    } catch (caught) {
      setError(messageOf(caught, 'The key was not added.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack>
      <Title order={2} size="h3">{title}</Title>
      <Text size="sm" c="dimmed">
        An SSH key signs {userId === 0 ? 'you' : 'this user'} in to SFTP without a password. Add the public key (the one line of
        a <Code>.pub</Code> file); the private key never leaves {userId === 0 ? 'your' : 'their'} computer.
      </Text>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      <form onSubmit={add} aria-label="New SSH key">
        <Stack gap="xs">
          <TextInput label="Key title" required value={keyTitle} onChange={(e) => setKeyTitle(e.currentTarget.value)} maxLength={255} />
          <Textarea label="Public key" required autosize minRows={2} maxRows={6} value={publicKey}
            placeholder="ssh-ed25519 AAAAC3Nza... you@laptop" styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            onChange={(e) => setPublicKey(e.currentTarget.value)} />
          <Group>
            <Button type="submit" loading={busy} disabled={keyTitle.trim() === '' || publicKey.trim() === ''}>Add key</Button>
            <Button variant="default" onClick={() => { setError(undefined); setGenerating(true); }}>Generate a key pair…</Button>
          </Group>
        </Stack>
      </form>
      {keys !== undefined && keys.length === 0 && <Text c="dimmed">{userId === 0 ? 'You have no SSH keys.' : 'No SSH keys.'}</Text>}
      {keys !== undefined && keys.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Title</Table.Th>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">Fingerprint</Table.Th>
                <Table.Th scope="col">Added</Table.Th>
                <Table.Th scope="col">Last sign-in</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.map((key) => (
                <Table.Tr key={key.id} data-ssh-key={key.title}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{key.title}</Table.Td>
                  <Table.Td>{keyTypeLabel(key)}</Table.Td>
                  <Table.Td><Code style={{ wordBreak: 'break-all' }}>SHA256:{key.fingerprint_sha256}</Code></Table.Td>
                  <Table.Td>{formatTime(key.created_at)}</Table.Td>
                  <Table.Td>{key.last_login_at === null ? 'Never' : formatTime(key.last_login_at)}</Table.Td>
                  <Table.Td><Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(key)} aria-label={`Delete ${key.title}`}>Delete</Button></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {generating && (
        <GenerateDialog userId={userId} onClose={() => setGenerating(false)}
          onGenerated={(made) => { setGenerating(false); setGenerated(made); load(); }} />
      )}
      <Modal opened={generated !== undefined} onClose={() => setGenerated(undefined)} title="Your new private key" size="lg">
        <Stack>
          <Text size="sm">
            Copy the private key now and save it in a file only you can read (for example <Code>~/.ssh/atrium_key</Code>,
            then <Code>chmod 600</Code> it): it is not shown again, and Atrium does not keep it.
          </Text>
          <Code block data-testid="new-private-key" style={{ whiteSpace: 'pre', overflowX: 'auto' }}>{generated?.generated_private_key}</Code>
          <Group justify="flex-end">
            <CopyButton value={generated?.generated_private_key ?? ''}>
              {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy private key'}</Button>}
            </CopyButton>
            <Button onClick={() => setGenerated(undefined)}>Done</Button>
          </Group>
        </Stack>
      </Modal>
      {deleting !== undefined && (
        <ConfirmDialog opened title="Delete SSH key" confirmLabel="Delete" onClose={() => setDeleting(undefined)}
          onConfirm={async () => { await deletePublicKey(deleting.id); load(); }}>
          Delete <strong>{deleting.title}</strong>? SFTP sign-ins with it stop working at once.
        </ConfirmDialog>
      )}
    </Stack>
  );
}

/** Asks for a title, a type and an optional password for the private key, then has the server make the pair. */
function GenerateDialog({ userId, onClose, onGenerated }: { userId: number; onClose(): void; onGenerated(made: GeneratedPublicKey): void }) {
  const [keyTitle, setKeyTitle] = useState('');
  const [algorithm, setAlgorithm] = useState<GeneratedAlgorithm>('ed25519');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function generate(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onGenerated(await generatePublicKey(userId, keyTitle.trim(), algorithm, password));
    } catch (caught) {
      setError(messageOf(caught, 'The key pair was not generated.'));
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title="Generate a key pair">
      <form onSubmit={generate} aria-label="Generate a key pair">
        <Stack>
          {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
          <Text size="sm" c="dimmed">Atrium makes the pair, keeps the public key and shows the private key once. Making the key on your own computer (<Code>ssh-keygen -t ed25519</Code>) and adding its public key is safer still.</Text>
          <TextInput label="Key title" required value={keyTitle} onChange={(e) => setKeyTitle(e.currentTarget.value)} maxLength={255} data-autofocus />
          <Select label="Type" allowDeselect={false} value={algorithm} data={ALGORITHMS}
            onChange={(value) => setAlgorithm((ALGORITHMS.find((a) => a.value === value)?.value) ?? 'ed25519')} />
          <PasswordInput label="Password for the private key" description="Optional; at least 5 characters. Leave empty for a key without a password."
            value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoComplete="new-password" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy} disabled={keyTitle.trim() === ''}>Generate</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
