import { Alert, Autocomplete, Button, Checkbox, Group, List, Modal, SegmentedControl, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { AccessDifference } from '../admin/AccessDifference';
import { previewGrant, previewGrantRemoval, type AccessChange } from '../api/access-review';
import { listGroups, type Group as UserGroup } from '../api/groups';
import { createPermission, deletePermission, granteeText, LEVELS, listPermissions, type Grantee, type Level, type Permission } from '../api/permissions';
import { resolveUser } from '../api/users';
import { levelName, levelOptions, LEVEL_WORDS } from '../words/permissions';

interface Pending {
  grant: Grantee & { path: string; permission: Level; recursive: boolean };
  /** undefined when the caller may not list the grantee's grants. */
  replaces: Permission[] | undefined;
  who: string;
  /** What it would do to effective access (the server's dry run). */
  difference: AccessChange[];
}

/** The same grantee's grants a new grant on `path` may replace: on the path, and below it when recursive. */
function candidates(existing: Permission[], path: string, recursive: boolean): Permission[] {
  return existing.filter((p) => p.path === path || (recursive && (path === '' || p.path.startsWith(`${path}/`))));
}

/**
 * The grants on one folder, to add and remove. Before a change applies, the dialog shows what it
 * would do to effective access (the server's dry run), and for a new grant the same grantee's
 * grants it may replace: the server deletes those the new one makes redundant.
 */
export function PermissionsDialog({ path, name, onClose }: { path: string; name: string; onClose(): void }) {
  const [grants, setGrants] = useState<Permission[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [kind, setKind] = useState<'user' | 'group'>('user');
  const [who, setWho] = useState('');
  const [level, setLevel] = useState<Level>('readonly');
  const [recursive, setRecursive] = useState(true);
  const [pending, setPending] = useState<Pending | undefined>();
  const [removing, setRemoving] = useState<{ grant: Permission; difference: AccessChange[] } | undefined>();
  const [done, setDone] = useState<string | undefined>();
  // Suggestions for the group field, as the user field has them: the groups the caller may see.
  const [groups, setGroups] = useState<UserGroup[]>([]);
  useEffect(() => {
    listGroups().then(setGroups, () => undefined);
  }, []);

  const load = useCallback(() => {
    listPermissions({ path }).then(setGrants, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The permissions could not be listed.'));
  }, [path]);
  useEffect(load, [load]);

  async function prepare(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setDone(undefined);
    try {
      const name = who.trim();
      let grantee: Grantee;
      let existing: Permission[] | undefined;
      if (kind === 'user') {
        const user = await resolveUser(name);
        if (user === undefined) {
          throw new Error(`No user named “${name}” is visible to you. Administrators see the users of their Workspace; a Folder Admin sees only themselves, and gives a permission to someone else by typing # and their user id (shown on their My account page).`);
        }
        grantee = { user_id: user.id };
        // A Folder Admin may not list a colleague's grants: then the preview cannot name them.
        existing = await listPermissions({ user_id: user.id }).catch(() => undefined);
      } else {
        const group = (await listGroups()).find((g) => g.name === name);
        if (group === undefined) throw new Error(`There is no group named “${name}” that you may give permissions to.`);
        grantee = { group_id: group.id };
        existing = await listPermissions({ group_id: group.id });
      }
      const grant = { ...grantee, path, permission: level, recursive };
      const difference = await previewGrant(grant);
      setRemoving(undefined);
      setPending({ grant, replaces: existing === undefined ? undefined : candidates(existing, path, recursive), who: `${kind} ${name}`, difference });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'That did not work.');
    }
  }

  async function apply() {
    if (pending === undefined) return;
    setError(undefined);
    try {
      const created = await createPermission(pending.grant);
      const replaced = created.replaced_permission_ids.length;
      setDone(replaced === 0 ? 'The permission was added.' : `The permission was added; ${replaced} of their permissions that it covers ${replaced === 1 ? 'was' : 'were'} removed.`);
      setPending(undefined);
      setWho('');
      load();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The permission was not added.');
    }
  }

  async function reviewRemoval(grant: Permission) {
    setError(undefined);
    setDone(undefined);
    try {
      const difference = await previewGrantRemoval(grant.id);
      setPending(undefined);
      setRemoving({ grant, difference });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The permission cannot be removed.');
    }
  }

  async function remove(grant: Permission) {
    setError(undefined);
    try {
      await deletePermission(grant.id);
      setRemoving(undefined);
      setDone('The permission was removed.');
      load();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The permission was not removed.');
    }
  }

  return (
    <Modal opened onClose={onClose} title="Folder permissions" size="lg">
      <Stack>
        <Text style={{ overflowWrap: 'anywhere' }}>On <strong>{name}</strong></Text>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        {done !== undefined && <Alert color="teal" role="status">{done}</Alert>}
        {grants.length === 0 ? <Text c="dimmed">No permission is given on this folder itself.</Text> : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Given to</Table.Th>
                <Table.Th scope="col">Level</Table.Th>
                <Table.Th scope="col">Subfolders</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {grants.map((g) => (
                <Table.Tr key={g.id} data-grant={granteeText(g)}>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{granteeText(g)}</Table.Td>
                  <Table.Td title={LEVEL_WORDS[g.permission]?.description}>{levelName(g.permission)}</Table.Td>
                  <Table.Td>{g.recursive ? 'Included' : 'Not included'}</Table.Td>
                  <Table.Td><Button size="xs" variant="subtle" color="red" aria-label={`Remove ${levelName(g.permission)} for ${granteeText(g)}`} onClick={() => void reviewRemoval(g)}>Remove</Button></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Title order={3} size="h5">Add a permission</Title>
        <form onSubmit={prepare} aria-label="Add a permission">
          <Stack gap="xs">
            <SegmentedControl aria-label="Give it to" value={kind} onChange={(v) => setKind(v === 'group' ? 'group' : 'user')} data={[{ value: 'user', label: 'A user' }, { value: 'group', label: 'A group' }]} w="fit-content" />
            <Group align="flex-end">
              {kind === 'user'
                ? <TextInput label="User name" description="Exact user name, or # and a user id" required value={who} onChange={(e) => setWho(e.currentTarget.value)} />
                : <Autocomplete label="Group name" description="One of the groups you may see" required value={who} onChange={setWho} data={groups.map((g) => g.name)} limit={20} />}
              <Select label="Level" allowDeselect={false} value={level} onChange={(v) => setLevel((v ?? 'readonly') as Level)} w={220}
                data={levelOptions(LEVELS)} description={LEVEL_WORDS[level].description}
                renderOption={({ option }) => (
                  <div>
                    <Text size="sm">{option.label}</Text>
                    <Text size="xs" c="dimmed">{LEVEL_WORDS[option.value as Level].description}</Text>
                  </div>
                )} />
            </Group>
            <Checkbox label="Also in subfolders" checked={recursive} onChange={(e) => setRecursive(e.currentTarget.checked)} />
            <Button type="submit" variant="default" w="fit-content" disabled={who.trim() === ''}>Review</Button>
          </Stack>
        </form>
        {pending !== undefined && (
          <Alert color="indigo" title="Before it applies" data-testid="replacement-preview">
            <Stack gap="xs">
              <Text size="sm" style={{ wordBreak: 'break-word' }}>
                Give <strong>{levelName(pending.grant.permission)}</strong> to {pending.who}{pending.grant.recursive ? ', in subfolders too' : ', on this folder only'}.
                Their permissions here{pending.grant.recursive ? ' and below' : ''} that this one makes unnecessary are removed.
              </Text>
              {pending.replaces === undefined ? <Text size="sm">You may not see their other permissions, so they cannot be listed here; you will be told how many were removed.</Text>
                : pending.replaces.length === 0 ? <Text size="sm">None of their permissions is removed.</Text> : (
                <>
                  <Text size="sm">These permissions of theirs are removed, since the new one covers them:</Text>
                  <List size="sm">{pending.replaces.map((p) => <List.Item key={p.id}>{levelName(p.permission)} on “{p.path}”{p.recursive ? '' : ' (this folder only)'}</List.Item>)}</List>
                </>
              )}
              <AccessDifference changes={pending.difference} />
              <Group>
                <Button size="xs" onClick={() => void apply()}>Add permission</Button>
                <Button size="xs" variant="default" onClick={() => setPending(undefined)}>Cancel</Button>
              </Group>
            </Stack>
          </Alert>
        )}
        {removing !== undefined && (
          <Alert color="orange" title="Before it applies" data-testid="removal-preview">
            <Stack gap="xs">
              <Text size="sm" style={{ wordBreak: 'break-word' }}>Remove <strong>{levelName(removing.grant.permission)}</strong> for {granteeText(removing.grant)} on this folder.</Text>
              <AccessDifference changes={removing.difference} />
              <Group>
                <Button size="xs" color="red" onClick={() => void remove(removing.grant)}>Remove permission</Button>
                <Button size="xs" variant="default" onClick={() => setRemoving(undefined)}>Cancel</Button>
              </Group>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Modal>
  );
}
