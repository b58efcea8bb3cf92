import { Alert, Button, Group as Row, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { createGroup, deleteGroup, listGroups, type Group } from '../api/groups';
import { GroupMembers } from '../admin/GroupMembers';
import { ConfirmDialog, NameDialog } from '../files/dialogs';
import { useAuthority } from '../session/authority';
import { useSession } from '../session/session';

type Dialog = { kind: 'create' } | { kind: 'delete'; group: Group } | undefined;

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
      {visible !== undefined && visible.length === 0 && <Text c="dimmed">No groups.</Text>}
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
                  <Row gap="xs">
                    <Button size="xs" variant="default" aria-label={`Members of ${group.name}`} onClick={() => setSelected(group)}>Members</Button>
                    {isAdministrator && (
                      <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${group.name}`} onClick={() => setDialog({ kind: 'delete', group })}>Delete</Button>
                    )}
                  </Row>
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
      {dialog?.kind === 'delete' && (
        <ConfirmDialog opened title="Delete group" confirmLabel="Delete" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await deleteGroup(dialog.group.id); setSelected(undefined); load(); }}>
          Delete <strong>{dialog.group.name}</strong>? Its memberships and every folder permission given to it go with it.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
