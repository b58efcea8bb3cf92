import { Alert, Badge, Button, Checkbox, Group, PasswordInput, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { createUser, deleteUser, listUsers, updateUser, type User } from '../api/users';
import { ConfirmDialog } from '../files/dialogs';
import { formatTime } from '../files/format';
import { SetPasswordDialog } from './SetPasswordDialog';
import { RowActions } from '../layout/RowActions';
import { useNarrow } from '../layout/useNarrow';
import { isTooShort, passwordRule, usePasswordMinimum } from '../account/NewPasswordFields';

/** What the person may do with a Partner's users: all of it for its Workspace's administrators, what its settings allow for a Partner Admin. */
export interface PartnerUserRights {
  create: boolean;
  delete: boolean;
  setPassword: boolean;
  appointAdmins: boolean;
  /** Whether the deletion and password change reach Partner Admins too (a Partner Admin's own reach only the others). */
  onPartnerAdmins: boolean;
}

/**
 * The users of one Partner: listed, added (as a Partner user or, for administrators, a Partner
 * Admin), made Partner Admin or not, given a password, deleted, as far as `rights` allow. The
 * server decides in the end; its refusal is shown as it words it.
 */
export function PartnerUsers({ partnerId, partnerName, rights, selfId, onChanged }: {
  partnerId: number;
  partnerName: string;
  rights: PartnerUserRights;
  selfId: number | undefined;
  onChanged?(): void;
}) {
  const [users, setUsers] = useState<User[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const minimum = usePasswordMinimum();
  const narrow = useNarrow();
  const [asAdmin, setAsAdmin] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | undefined>();
  const [dialog, setDialog] = useState<{ kind: 'password' | 'delete'; user: User } | undefined>();

  const [next, setNext] = useState<string | undefined>();

  // A page at a time: a Partner may have many users.
  const loadPage = useCallback((cursor: string | undefined) => {
    listUsers(cursor, undefined, undefined, partnerId).then(
      (page) => {
        setUsers((previous) => (cursor === undefined ? page.users : [...(previous ?? []), ...page.users]));
        setNext(page.next);
      },
      (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The Partner\'s users could not be listed.'),
    );
  }, [partnerId]);
  const load = useCallback(() => loadPage(undefined), [loadPage]);
  useEffect(load, [load]);

  const changed = () => {
    load();
    onChanged?.();
  };

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const created = await createUser({
        username: username.trim(), password, partner_id: partnerId,
        ...(rights.appointAdmins && asAdmin ? { partner_admin: true } : {}),
      });
      setDone(`${created.username} was added${created.partner_admin ? ' as a Partner Admin' : ''}.`);
      setUsername('');
      setPassword('');
      setAsAdmin(false);
      changed();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The user was not added.');
    } finally {
      setBusy(false);
    }
  }

  async function toggleAdmin(user: User) {
    setError(undefined);
    setDone(undefined);
    try {
      await updateUser(user.id, { partner_admin: !user.partner_admin });
      changed();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The user was not changed.');
    }
  }

  const titleId = `partner-${partnerId}-users`;
  return (
    <Stack component="section" aria-labelledby={titleId}>
      <Title order={2} size="h3" id={titleId} style={{ wordBreak: 'break-word' }}>Users of {partnerName}</Title>
      {error !== undefined && <Alert color="red" role="alert" style={{ wordBreak: 'break-word' }}>{error}</Alert>}
      {done !== undefined && <Alert color="teal" role="status" style={{ wordBreak: 'break-word' }}>{done}</Alert>}
      {users !== undefined && users.length === 0 && <Text c="dimmed">No users yet{rights.create ? ': add the first one below' : ''}.</Text>}
      {users !== undefined && users.length > 0 && (
        <Table.ScrollContainer minWidth={narrow ? 0 : 520}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">User name</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Last sign-in</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => (
                <Table.Tr key={user.id} data-partner-user={user.username}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{user.username}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {user.partner_admin ? <Badge variant="light">Partner Admin</Badge> : 'Partner user'}
                      {user.disabled && <Badge variant="light" color="red">Disabled</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{user.last_login_at === null ? 'Never' : formatTime(user.last_login_at)}</Table.Td>
                  <Table.Td>
                    {user.id !== selfId && (rights.onPartnerAdmins || !user.partner_admin) && (
                      <RowActions row={user.username} actions={[
                        ...(rights.appointAdmins ? [{
                          label: user.partner_admin ? 'Make Partner user' : 'Make Partner Admin',
                          ariaLabel: `${user.partner_admin ? 'Make Partner user' : 'Make Partner Admin'}: ${user.username}`,
                          onClick: () => void toggleAdmin(user),
                        }] : []),
                        ...(rights.setPassword ? [{ label: 'Set password', ariaLabel: `Set password of ${user.username}`, onClick: () => setDialog({ kind: 'password', user }) }] : []),
                        ...(rights.delete ? [{ label: 'Delete', ariaLabel: `Delete ${user.username}`, danger: true, onClick: () => setDialog({ kind: 'delete', user }) }] : []),
                      ]} />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {next !== undefined && <Button variant="subtle" w="fit-content" onClick={() => loadPage(next)}>Show more</Button>}
      {rights.create && (
        <form onSubmit={add} aria-label={`Add a user to ${partnerName}`}>
          <Stack gap="xs">
            <Title order={3} size="h5">Add a user</Title>
            <Group align="flex-end">
              <TextInput label="User name" required value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
              <PasswordInput label="Password" required autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} w={260}
                {...passwordRule(password, minimum)} />
            </Group>
            {rights.appointAdmins && (
              <Checkbox label="Partner Admin" description="Manages this Partner's users, as far as the Partner's settings allow" checked={asAdmin}
                onChange={(e) => setAsAdmin(e.currentTarget.checked)} />
            )}
            <Button type="submit" variant="default" w="fit-content" loading={busy} disabled={username.trim() === '' || password === '' || isTooShort(password, minimum)}>Add user</Button>
          </Stack>
        </form>
      )}
      {dialog?.kind === 'password' && <SetPasswordDialog user={dialog.user} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog opened title="Delete user" confirmLabel="Delete" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await deleteUser(dialog.user.id); changed(); }}>
          Delete <strong>{dialog.user.username}</strong>? Their sessions and API keys go with them.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
