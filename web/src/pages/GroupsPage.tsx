import { Alert, Anchor, Button, Group as Row, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { createGroup, deleteGroup, listGroups, renameGroup, type Group } from '../api/groups';
import { GroupMembers } from '../admin/GroupMembers';
import { ConfirmDialog, NameDialog } from '../files/dialogs';
import { RowActions } from '../layout/RowActions';
import { useAuthority } from '../session/authority';
import { useSession } from '../session/session';

type Dialog = { kind: 'create' } | { kind: 'rename' | 'delete'; group: Group } | undefined;

/** Groups of the current Workspace: administrators see them all, a Group Admin only their own. */
export function GroupsPage() {
  const { profile } = useSession();
  const [groups, setGroups] = useState<Group[] | undefined>();
  const [selected, setSelected] = useState<Group | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [dialog, setDialog] = useState<Dialog>();
  const isAdministrator = useAuthority().administrator;
  // A Group Admin sees the groups it belongs to; it manages only those it administers.
  const visible = groups?.filter((g) => isAdministrator || g.admin_ids.split(',').includes(String(profile?.userId)));

  const load = useCallback(() => {
    listGroups().then(setGroups, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The groups could not be listed.'));
  }, []);
  useEffect(load, [load]);

  return (
    <Stack>
      <Row justify="space-between">
        <Title order={1} size="h2">Groups</Title>
        {isAdministrator && <Button onClick={() => setDialog({ kind: 'create' })}>New group</Button>}
      </Row>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {visible !== undefined && visible.length === 0 && (
        isAdministrator
          ? <Text c="dimmed">No groups in this Workspace yet. A group gives the same folder permissions to all its members: <Anchor component="button" onClick={() => setDialog({ kind: 'create' })}>create one</Anchor>.</Text>
          : <Text c="dimmed">You administer no group in this Workspace.</Text>
      )}
      {visible !== undefined && visible.length > 0 && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Members</Table.Th>
              <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visible.map((group) => (
              <Table.Tr key={group.id} data-group={group.name}>
                <Table.Td style={{ wordBreak: 'break-word' }}>{group.name}</Table.Td>
                <Table.Td>{group.user_ids === '' ? 0 : group.user_ids.split(',').length}</Table.Td>
                <Table.Td>
                  <RowActions row={group.name} actions={[
                    { label: 'Members', ariaLabel: `Members of ${group.name}`, onClick: () => setSelected(group) },
                    ...(isAdministrator ? [
                      { label: 'Rename', ariaLabel: `Rename ${group.name}`, onClick: () => setDialog({ kind: 'rename', group }) },
                      { label: 'Delete', ariaLabel: `Delete ${group.name}`, danger: true, onClick: () => setDialog({ kind: 'delete', group }) },
                    ] : []),
                  ]} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {selected !== undefined && <GroupMembers key={selected.id} group={selected} mayAppointAdmins={isAdministrator} onChanged={load} />}
      {dialog?.kind === 'create' && (
        <NameDialog opened title="New group" label="Name" initial="" submitLabel="Create" onClose={() => setDialog(undefined)}
          onSubmit={async (name) => { await createGroup(name); load(); }} />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog opened title="Rename group" label="Name" initial={dialog.group.name} submitLabel="Rename" onClose={() => setDialog(undefined)}
          onSubmit={async (name) => {
            const renamed = await renameGroup(dialog.group.id, name);
            // The members' panel names the group too.
            setSelected((open) => (open?.id === renamed.id ? { ...open, name: renamed.name } : open));
            load();
          }} />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog opened title="Delete group" confirmLabel="Delete" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await deleteGroup(dialog.group.id); setSelected(undefined); load(); }}>
          Delete <strong>{dialog.group.name}</strong>? Its memberships and every folder permission given to it go with it.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
