import { Alert, Autocomplete, Badge, Button, Group as Row, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { previewMemberAddition, previewMemberRemoval, type AccessChange } from '../api/access-review';
import { addMember, listMembers, removeMember, setGroupAdmin, type Group, type Membership } from '../api/groups';
import { listUsers, resolveUser } from '../api/users';
import { RowActions } from '../layout/RowActions';
import { AccessDifference } from './AccessDifference';

/**
 * The members of one group. Group Admins manage the members of the groups they administer;
 * only administrators of the Workspace make someone a Group Admin. Adding or removing a member
 * first shows what it would do to effective access (the server's dry run), to confirm.
 */
export function GroupMembers({ group, mayAppointAdmins, onChanged }: { group: Group; mayAppointAdmins: boolean; onChanged(): void }) {
  const [members, setMembers] = useState<Membership[]>([]);
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState<{ text: string; confirm: string; difference: AccessChange[]; apply(): Promise<void> } | undefined>();
  // Suggestions: the users the caller may see (an administrator: the Workspace's; a Group Admin:
  // themselves and the members of their groups, all the server lets them list).
  const [visible, setVisible] = useState<string[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    listUsers(undefined, undefined, controller.signal).then((page) => setVisible(page.users.map((u) => u.username)), () => undefined);
    return () => controller.abort();
  }, []);

  const load = useCallback(() => {
    listMembers(group.id).then(setMembers, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The members could not be listed.'));
  }, [group.id]);
  useEffect(load, [load]);

  async function attempt(action: () => Promise<void>) {
    setError(undefined);
    try {
      await action();
      load();
      onChanged();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'That did not work.');
    }
  }

  async function review(action: () => Promise<void>) {
    setError(undefined);
    setPending(undefined);
    try {
      await action();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'That did not work.');
    }
  }

  function add(event: FormEvent) {
    event.preventDefault();
    const typed = username.trim();
    void review(async () => {
      const user = await resolveUser(typed);
      if (user === undefined) throw new Error(notFound(typed, mayAppointAdmins));
      const difference = await previewMemberAddition(group.id, user.id);
      setPending({
        text: `Add ${user.label} to ${group.name}.`,
        confirm: `Add ${user.label}`,
        difference,
        apply: async () => {
          await addMember(group.id, user.id);
          setUsername('');
        },
      });
    });
  }

  function remove(member: Membership) {
    void review(async () => {
      const difference = await previewMemberRemoval(member.id);
      setPending({ text: `Remove ${member.username} from ${group.name}.`, confirm: `Remove ${member.username} from the group`, difference, apply: () => removeMember(member.id) });
    });
  }

  return (
    <Stack component="section" aria-labelledby={`group-${group.id}-members`}>
      <Title order={2} size="h3" id={`group-${group.id}-members`} style={{ wordBreak: 'break-word' }}>Members of {group.name}</Title>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      <form onSubmit={add} aria-label="Add a member">
        <Row align="flex-end">
          <Autocomplete label="User name" required value={username} onChange={setUsername} maw={320}
            description={mayAppointAdmins ? 'Exact user name, or # and a user id' : 'Exact user name of someone you can see, or # and their user id'}
            data={visible.filter((name) => !members.some((m) => m.username === name))} limit={20} />
          <Button type="submit" variant="default" disabled={username.trim() === ''}>Add member</Button>
        </Row>
      </form>
      {pending !== undefined && (
        <Alert color="indigo" title="Before it applies" data-testid="membership-preview">
          <Stack gap="xs">
            <Text size="sm" style={{ wordBreak: 'break-word' }}>{pending.text}</Text>
            <AccessDifference changes={pending.difference} />
            <Row>
              <Button size="xs" onClick={() => { const change = pending; setPending(undefined); void attempt(change.apply); }}>{pending.confirm}</Button>
              <Button size="xs" variant="default" onClick={() => setPending(undefined)}>Cancel</Button>
            </Row>
          </Stack>
        </Alert>
      )}
      {members.length === 0 ? <Text c="dimmed">No members yet: add one by their user name above.</Text> : (
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
                  <RowActions row={m.username} actions={[
                    ...(mayAppointAdmins ? [{ label: m.admin ? 'Make member' : 'Make Group Admin', onClick: () => void attempt(() => setGroupAdmin(m.id, !m.admin)) }] : []),
                    { label: 'Remove', ariaLabel: `Remove ${m.username}`, danger: true, onClick: () => remove(m) },
                  ]} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** Why nobody was found, and what to do: a Group Admin cannot list users outside their groups. */
function notFound(typed: string, administrator: boolean): string {
  if (typed.startsWith('#')) return `There is no user ${typed} who may join this group.`;
  if (administrator) return `There is no user named “${typed}” in this Workspace.`;
  return `No user named “${typed}” is visible to you. As a Group Admin you see only yourself and the members of the groups you administer. `
    + 'To add someone else, type # and their user id (shown on their My account page), or ask an administrator of this Workspace.';
}
