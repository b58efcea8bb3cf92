import { Alert, Button, Code, CopyButton, Group, Modal, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { createKey, getSitePolicies, listKeys, listWorkspaces, revokeKey, workspaceLabel, type ApiKey, type SitePolicies, type Workspace } from '../api/account';
import { ConfirmDialog } from '../files/dialogs';
import { formatTime } from '../files/format';
import { useNarrow } from '../layout/useNarrow';
import { useAuthority } from '../session/authority';
import { useSession } from '../session/session';

/**
 * Which Workspace a new key belongs to (contract 3.4, 4.2): the one the console works in, except
 * that a Site Administrator working in Workspace 0 may choose any for a Workspace 0 user's key. A
 * Custom Workspace user's key always belongs to their own Workspace. `reason` says why there is no choice.
 */
function keyWorkspaceChoice(ownerWorkspaceId: number, context: number, siteAdmin: boolean): { choose: boolean; fixed: number; reason: string } {
  if (ownerWorkspaceId !== 0) return { choose: false, fixed: ownerWorkspaceId, reason: 'A key of a Custom Workspace user belongs to that Workspace.' };
  if (siteAdmin && context === 0) return { choose: true, fixed: 0, reason: '' };
  return { choose: false, fixed: context, reason: 'A key belongs to the Workspace you are working in; only a Site Administrator working in the Default Workspace chooses another.' };
}

/**
 * A user's API keys (`userId` 0: the caller's own): list, create (the secret shown exactly once),
 * revoke. Administrators use it for the users they administer.
 */
/** What a key may reach, in the console's words. */
function reachOf(key: ApiKey): string {
  return key.permission_set === 'full' ? 'Everything' : 'Files only';
}

export function ApiKeys({ userId = 0, ownerWorkspaceId, title = 'API keys' }: { userId?: number; ownerWorkspaceId?: number; title?: string }) {
  const { profile, workspaceId: context } = useSession();
  const { siteAdmin, administrator, known } = useAuthority();
  const [policies, setPolicies] = useState<SitePolicies | undefined>();
  // The site may keep key creation for administrators (contract 8): then say so rather than offer a refusal.
  const restricted = userId === 0 && policies?.users_can_create_api_keys === false && known && !administrator;
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const choice = keyWorkspaceChoice(ownerWorkspaceId ?? profile?.workspaceId ?? 0, context ?? 0, siteAdmin);
  const [keyWorkspace, setKeyWorkspace] = useState<number>(choice.fixed);
  const [keys, setKeys] = useState<ApiKey[] | undefined>();
  const narrow = useNarrow();
  const [error, setError] = useState<string | undefined>();
  const [name, setName] = useState('');
  const [permissionSet, setPermissionSet] = useState<ApiKey['permission_set']>('full');
  const [created, setCreated] = useState<(ApiKey & { key: string }) | undefined>();
  const [revoking, setRevoking] = useState<ApiKey | undefined>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    listKeys(userId).then(setKeys, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'Your keys could not be listed.'));
  }, [userId]);
  useEffect(load, [load]);
  useEffect(() => {
    getSitePolicies().then(setPolicies, () => undefined);
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    listWorkspaces(controller.signal).then(setWorkspaces, () => undefined);
    return () => controller.abort();
  }, []);

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      setCreated(await createKey(userId, name.trim(), permissionSet, choice.choose ? keyWorkspace : undefined));
      setName('');
      load();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The key was not created.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack>
      <Title order={2} size="h3">{title}</Title>
      <Text size="sm" c="dimmed">A key lets a program act as {userId === 0 ? 'you' : 'this user'}. Its secret is shown once, when it is created.</Text>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      <form onSubmit={create} aria-label="New API key">
        <Group align="flex-end">
          <TextInput label="Key name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Select label="Reach" value={permissionSet} allowDeselect={false} onChange={(value) => setPermissionSet(value === 'files_only' ? 'files_only' : 'full')}
            data={[{ value: 'full', label: userId === 0 ? 'Everything I may do' : 'Everything they may do' }, { value: 'files_only', label: 'Files and folders only' }]} />
          <Select label="Key Workspace" allowDeselect={false} w={220} disabled={!choice.choose}
            description={choice.choose ? 'Where the key works; a key of another Workspace is confined to it' : choice.reason}
            value={String(choice.choose ? keyWorkspace : choice.fixed)} onChange={(value) => setKeyWorkspace(Number(value ?? 0))}
            data={(choice.choose ? [0, ...workspaces.map((w) => w.id).filter((id) => id !== 0)] : [choice.fixed]).map((id) => ({ value: String(id), label: workspaceLabel(workspaces, id) }))} />
          <Button type="submit" loading={busy} disabled={name.trim() === '' || restricted}>Create key</Button>
        </Group>
        {restricted && <Text size="sm" c="dimmed" mt="xs">This site lets only administrators create API keys. Ask an administrator of your Workspace to create one for you.</Text>}
      </form>
      {keys !== undefined && keys.length === 0 && <Text c="dimmed">{userId === 0 ? 'You have no API keys.' : 'No API keys.'}</Text>}
      {keys !== undefined && keys.length > 0 && (
        // On a phone: the name, with its reach, Workspace and last use beneath, and Revoke.
        <Table.ScrollContainer minWidth={narrow ? 0 : 520}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Reach</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Workspace</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Created</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Last used</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.map((key) => (
                <Table.Tr key={key.id} data-key={key.name}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    {key.name}
                    {narrow && (
                      <Text size="xs" c="dimmed" style={{ wordBreak: 'normal' }}>
                        {reachOf(key)}, in {workspaceLabel(workspaces, key.workspace_id)}; {key.last_use_at === null ? 'never used' : `last used ${formatTime(key.last_use_at)}`}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{reachOf(key)}</Table.Td>
                  <Table.Td visibleFrom="sm" title={`Workspace ${key.workspace_id}`}>{workspaceLabel(workspaces, key.workspace_id)}</Table.Td>
                  <Table.Td visibleFrom="sm">{formatTime(key.created_at)}</Table.Td>
                  <Table.Td visibleFrom="sm">{key.last_use_at === null ? 'Never' : formatTime(key.last_use_at)}</Table.Td>
                  <Table.Td><Button size="xs" variant="subtle" color="red" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>Revoke</Button></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <Modal opened={created !== undefined} onClose={() => setCreated(undefined)} title="Your new API key">
        <Stack>
          <Text size="sm">Copy the secret now: it is not shown again, and Atrium keeps only a hash of it.</Text>
          <Code block data-testid="new-key-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{created?.key}</Code>
          <Group justify="flex-end">
            <CopyButton value={created?.key ?? ''}>
              {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}
            </CopyButton>
            <Button onClick={() => setCreated(undefined)}>Done</Button>
          </Group>
        </Stack>
      </Modal>
      {revoking !== undefined && (
        <ConfirmDialog opened title="Revoke API key" confirmLabel="Revoke" onClose={() => setRevoking(undefined)}
          onConfirm={async () => { await revokeKey(revoking.id); load(); }}>
          Revoke <strong>{revoking.name}</strong>? Programs using it stop working at once.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
