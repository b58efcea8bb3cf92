import { Alert, Button, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { createWorkspace, deleteWorkspace, listWorkspaces, renameWorkspace, type Workspace } from '../api/site';
import { ConfirmDialog, NameDialog } from '../files/dialogs';
import { formatTime } from '../files/format';
import { RowActions } from '../layout/RowActions';
import { useNarrow } from '../layout/useNarrow';

type Dialog = { kind: 'create' } | { kind: 'rename'; workspace: Workspace } | { kind: 'delete'; workspace: Workspace } | undefined;

/** Site Administrators: every Workspace, to create, rename and delete (an empty one only). */
export function WorkspacesPage() {
  const [workspaces, setWorkspaces] = useState<Workspace[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [dialog, setDialog] = useState<Dialog>();
  const narrow = useNarrow();
  const load = useCallback(() => {
    listWorkspaces().then(setWorkspaces, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The Workspaces could not be listed.'));
  }, []);
  useEffect(load, [load]);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Workspaces</Title>
        <Button onClick={() => setDialog({ kind: 'create' })}>New Workspace</Button>
      </Group>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {workspaces !== undefined && (
        <Table.ScrollContainer minWidth={narrow ? 0 : 480}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" visibleFrom="sm">Id</Table.Th>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Created</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {workspaces.map((workspace) => (
                <Table.Tr key={workspace.id} data-workspace={workspace.name}>
                  <Table.Td visibleFrom="sm">{workspace.id}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{workspace.id === 0 ? 'Default Workspace' : workspace.name}</Table.Td>
                  <Table.Td visibleFrom="sm">{formatTime(workspace.created_at)}</Table.Td>
                  <Table.Td>
                    {workspace.id === 0 ? (
                      <Text size="sm" c="dimmed">The site itself: cannot be renamed or deleted</Text>
                    ) : (
                      <RowActions row={workspace.name} actions={[
                        { label: 'Rename', ariaLabel: `Rename ${workspace.name}`, onClick: () => setDialog({ kind: 'rename', workspace }) },
                        { label: 'Delete', ariaLabel: `Delete ${workspace.name}`, danger: true, onClick: () => setDialog({ kind: 'delete', workspace }) },
                      ]} />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {dialog?.kind === 'create' && (
        <NameDialog opened title="New Workspace" label="Name" initial="" submitLabel="Create" onClose={() => setDialog(undefined)}
          onSubmit={async (name) => { await createWorkspace(name); load(); }} />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog opened title="Rename Workspace" label="Name" initial={dialog.workspace.name} submitLabel="Rename" onClose={() => setDialog(undefined)}
          onSubmit={async (name) => { await renameWorkspace(dialog.workspace.id, name); load(); }} />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog opened title="Delete Workspace" confirmLabel="Delete" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await deleteWorkspace(dialog.workspace.id); load(); }}>
          Delete <strong>{dialog.workspace.name}</strong>? Only an empty Workspace can be deleted: no users, groups, keys, permissions or files.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
