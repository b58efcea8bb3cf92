import { Alert, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiKeys } from '../account/ApiKeys';
import { SshKeys } from '../account/SshKeys';
import { levelName, LEVEL_WORDS } from '../words/permissions';
import { granteeText, listPermissions, type Permission } from '../api/permissions';
import type { User } from '../api/users';

/** What a user can reach (their grants, their groups' included), their API keys and their SSH keys. */
export function UserAccessDialog({ user, onClose }: { user: User; onClose(): void }) {
  const [grants, setGrants] = useState<Permission[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    listPermissions({ user_id: user.id, include_groups: true }).then(setGrants, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The permissions could not be listed.'));
  }, [user.id]);

  return (
    <Modal opened onClose={onClose} title={`Access of ${user.username}`} size="xl">
      <Stack>
        <Title order={2} size="h3">Folder permissions, through groups too</Title>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        {grants !== undefined && grants.length === 0 && <Text c="dimmed">No folder permission, given to them or to a group of theirs.</Text>}
        {grants !== undefined && grants.length > 0 && (
          <Table.ScrollContainer minWidth={480}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Folder</Table.Th>
                  <Table.Th scope="col">Level</Table.Th>
                  <Table.Th scope="col">Given to</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {grants.map((g) => (
                  <Table.Tr key={g.id} data-user-grant={g.path}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{g.path === '' ? 'All files' : g.path}{g.recursive ? '' : ' (this folder only)'}</Table.Td>
                    <Table.Td title={LEVEL_WORDS[g.permission]?.description}>{levelName(g.permission)}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{granteeText(g)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <ApiKeys userId={user.id} ownerWorkspaceId={user.workspace_id} title={`API keys of ${user.username}`} />
        <SshKeys userId={user.id} title={`SSH keys of ${user.username}`} />
      </Stack>
    </Modal>
  );
}
