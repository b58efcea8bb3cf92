import { Alert, Badge, Button, Group as Row, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { findUserId } from '../api/explain';
import { addMember, listMembers, removeMember, setGroupAdmin, type Group, type Membership } from '../api/groups';

/**
 * The members of one group. Group Admins manage the members of the groups they administer;
 * only administrators of the Workspace make someone a Group Admin.
 */
export function GroupMembers({ group, mayAppointAdmins }: { group: Group; mayAppointAdmins: boolean }) {
  const [members, setMembers] = useState<Membership[]>([]);
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | undefined>();

  const load = useCallback(() => {
    listMembers(group.id).then(setMembers, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The members could not be listed.'));
  }, [group.id]);
  useEffect(load, [load]);

  async function attempt(action: () => Promise<void>) {
    setError(undefined);
    try {
      await action();
      load();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'That did not work.');
    }
  }

  function add(event: FormEvent) {
    event.preventDefault();
    void attempt(async () => {
      const userId = await findUserId(username.trim());
      if (userId === undefined) throw new Error(`No user named ${username.trim()} that you may add.`);
      await addMember(group.id, userId);
      setUsername('');
    });
  }

  return (
    <Stack component="section" aria-labelledby={`group-${group.id}-members`}>
      <Title order={2} size="h3" id={`group-${group.id}-members`} style={{ wordBreak: 'break-word' }}>Members of {group.name}</Title>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      <form onSubmit={add} aria-label="Add a member">
        <Row align="flex-end">
          <TextInput label="User name" required value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
          <Button type="submit" variant="default" disabled={username.trim() === ''}>Add member</Button>
        </Row>
      </form>
      {members.length === 0 ? <Text c="dimmed">No members.</Text> : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">User name</Table.Th>
              <Table.Th scope="col">Role</Table.Th>
              <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((m) => (
              <Table.Tr key={m.id} data-member={m.username}>
                <Table.Td style={{ wordBreak: 'break-all' }}>{m.username}</Table.Td>
                <Table.Td>{m.admin ? <Badge variant="light">Group Admin</Badge> : 'Member'}</Table.Td>
                <Table.Td>
                  <Row gap="xs">
                    {mayAppointAdmins && (
                      <Button size="xs" variant="default" onClick={() => void attempt(() => setGroupAdmin(m.id, !m.admin))}>
                        {m.admin ? 'Make member' : 'Make Group Admin'}
                      </Button>
                    )}
                    <Button size="xs" variant="subtle" color="red" aria-label={`Remove ${m.username}`} onClick={() => void attempt(() => removeMember(m.id))}>Remove</Button>
                  </Row>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
