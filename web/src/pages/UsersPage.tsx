import { ActionIcon, Alert, Anchor, Badge, Button, Center, Group, Loader, Menu, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { deleteUser, listUsers, resetTwoFactor, updateUser, type User } from '../api/users';
import { CreateUserDialog } from '../admin/CreateUserDialog';
import { EditUserDialog } from '../admin/EditUserDialog';
import { SetPasswordDialog } from '../admin/SetPasswordDialog';
import { UserAccessDialog } from '../admin/UserAccessDialog';
import { ConfirmDialog } from '../files/dialogs';
import { formatTime } from '../files/format';
import { useNarrow } from '../layout/useNarrow';
import { useWorkspaceNames, WorkspaceName } from '../layout/WorkspaceName';
import { useAuthority } from '../session/authority';
import { useSession } from '../session/session';
import { methodsInWords } from '../two-factor/words';

type Dialog = { kind: 'create' } | { kind: 'edit' | 'password' | 'delete' | 'access' | 'reset-2fa'; user: User } | undefined;

/** The users of the current Workspace the caller administers (the server decides which). */
export function UsersPage() {
  const { profile, workspaceId } = useSession();
  // Only administrators of the Workspace change users; a Group Admin sees their groups' members here.
  const { administrator, siteAdmin, known } = useAuthority();
  const [users, setUsers] = useState<User[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [dialog, setDialog] = useState<Dialog>();
  const workspaceName = useWorkspaceNames();
  // On a phone the table keeps the user name, the role and the actions; the rest is in Edit.
  const narrow = useNarrow();

  const load = useCallback((cursor: string | undefined) => {
    setLoading(true);
    setError(undefined);
    listUsers(cursor, applied).then(
      (page) => {
        setUsers((previous) => (cursor === undefined ? page.users : [...previous, ...page.users]));
        setNext(page.next);
        setLoading(false);
      },
      (caught: unknown) => {
        setError(caught instanceof Error ? caught.message : 'The users could not be listed.');
        setLoading(false);
      },
    );
  }, [applied]);
  useEffect(() => load(undefined), [load]);

  async function toggleDisabled(user: User) {
    setError(undefined);
    try {
      await updateUser(user.id, { disabled: !user.disabled });
      load(undefined);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The user was not changed.');
    }
  }

  function find(event: FormEvent) {
    event.preventDefault();
    setApplied(search.trim());
  }

  const context = workspaceId ?? 0;
  return (
    // data-authority tells a test whether the server has answered what the caller administers.
    <Stack data-authority={known ? 'known' : 'checking'}>
      <Group justify="space-between">
        <Title order={1} size="h2">Users</Title>
        {administrator && <Button onClick={() => setDialog({ kind: 'create' })}>New user</Button>}
      </Group>
      {!administrator && <Text size="sm" c="dimmed">You see yourself and the members of the groups you administer. Only an administrator of the Workspace changes users.</Text>}
      <form onSubmit={find} role="search" aria-label="Find a user">
        <Group align="flex-end">
          <TextInput label="User name" description="The exact user name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
          <Button type="submit" variant="default">Find</Button>
          {applied !== '' && <Button variant="subtle" onClick={() => { setSearch(''); setApplied(''); }}>Show all</Button>}
        </Group>
      </form>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {users.length > 0 && (
        <Table.ScrollContainer minWidth={narrow ? 0 : 760}>
          <Table highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">User name</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Name</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Email</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Workspace</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Two-factor</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Last sign-in</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => (
                <Table.Tr key={user.id} data-user={user.username}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{user.username}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }} visibleFrom="sm">{user.name}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }} visibleFrom="sm">{user.email}</Table.Td>
                  <Table.Td visibleFrom="sm"><WorkspaceName id={user.workspace_id} name={workspaceName(user.workspace_id)} /></Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {user.site_admin && <Badge variant="light">Site Administrator</Badge>}
                      {user.workspace_admin && <Badge variant="light">Workspace Administrator</Badge>}
                      {user.partner_id != null && (
                        <Badge variant="light" style={{ textTransform: 'none' }}>
                          {user.partner_admin ? 'Partner Admin' : 'Partner user'} of {user.partner_name ?? `Partner #${user.partner_id}`}
                        </Badge>
                      )}
                      {user.disabled && <Badge variant="light" color="red">Disabled</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td visibleFrom="sm" data-column="two-factor">{user.active_2fa === true ? methodsInWords(user.type_of_2fa) : 'Off'}</Table.Td>
                  <Table.Td visibleFrom="sm">{user.last_login_at === null ? 'Never' : formatTime(user.last_login_at)}</Table.Td>
                  <Table.Td>
                    {administrator && user.id !== profile?.userId && (
                      <Menu position="bottom-end">
                        <Menu.Target>
                          <ActionIcon variant="subtle" aria-label={`Actions for ${user.username}`}><span aria-hidden="true">⋯</span></ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => setDialog({ kind: 'edit', user })}>Edit</Menu.Item>
                          <Menu.Item onClick={() => setDialog({ kind: 'access', user })}>Permissions and API keys</Menu.Item>
                          <Menu.Item onClick={() => setDialog({ kind: 'password', user })}>Set password</Menu.Item>
                          {user.active_2fa === true && <Menu.Item onClick={() => setDialog({ kind: 'reset-2fa', user })}>Reset two-factor authentication</Menu.Item>}
                          <Menu.Item onClick={() => void toggleDisabled(user)}>{user.disabled ? 'Enable' : 'Disable'}</Menu.Item>
                          <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', user })}>Delete</Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!loading && users.length === 0 && error === undefined && (
        applied !== ''
          ? <Text c="dimmed">No user is named “{applied}” here. User names are matched exactly.</Text>
          : administrator
            ? <Text c="dimmed">No users in {workspaceName(context) === 'Default Workspace' ? 'this Workspace' : workspaceName(context)} yet: <Anchor component="button" onClick={() => setDialog({ kind: 'create' })}>create one</Anchor>.</Text>
            : <Text c="dimmed">No users to show.</Text>
      )}
      {loading && <Center><Loader size="sm" aria-label="Loading" /></Center>}
      {next !== undefined && !loading && <Center><Button variant="subtle" onClick={() => load(next)}>Show more</Button></Center>}

      {dialog?.kind === 'create' && (
        <CreateUserDialog onClose={() => setDialog(undefined)} onCreated={() => load(undefined)}
          offerSiteAdmin={siteAdmin && context === 0} offerWorkspaceAdmin={context !== 0} workspaceName={workspaceName(context)} />
      )}
      {dialog?.kind === 'edit' && <EditUserDialog user={dialog.user} callerIsSiteAdmin={siteAdmin} onClose={() => setDialog(undefined)} onSaved={() => load(undefined)} />}
      {dialog?.kind === 'access' && <UserAccessDialog user={dialog.user} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'password' && <SetPasswordDialog user={dialog.user} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog opened title="Delete user" confirmLabel="Delete" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await deleteUser(dialog.user.id); load(undefined); }}>
          Delete <strong>{dialog.user.username}</strong>? Their sessions and API keys go with them.
        </ConfirmDialog>
      )}
      {dialog?.kind === 'reset-2fa' && (
        <ConfirmDialog opened title="Reset two-factor authentication" confirmLabel="Reset" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await resetTwoFactor(dialog.user.id); load(undefined); }}>
          For someone who lost their phone or passkey: <strong>{dialog.user.username}</strong>&apos;s authenticator app, passkeys and recovery codes
          are removed, and they are signed out everywhere. They then sign in with their password alone, or, where two-factor
          authentication is required, set it up again as they sign in. Make sure it is really them asking.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
