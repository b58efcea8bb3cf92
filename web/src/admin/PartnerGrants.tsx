import { Alert, Button, Checkbox, Group, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { previewGrant, previewGrantRemoval, type AccessChange } from '../api/access-review';
import { useNarrow } from '../layout/useNarrow';
import { levelName, LEVEL_WORDS } from '../words/permissions';
import { createPartnerPermission, deletePermission, listPartnerPermissions, PARTNER_LEVELS, type PartnerLevel, type Permission } from '../api/permissions';
import { AccessDifference } from './AccessDifference';
import { FolderPicker } from './FolderPicker';

type PartnerGrant = { partner_id: number; path: string; permission: PartnerLevel; recursive: boolean };

/** The levels in words, as an administrator chooses them. */
/**
 * The folder permissions given to one Partner: its users reach exactly these, inside its root
 * folder. Added with a folder picker and a level (no administration, sharing or history: the
 * server refuses those to a Partner). As every grant change in the console, adding or removing one
 * first shows what it would do to its users' access (the server's dry run), to confirm.
 */
export function PartnerGrants({ partnerId, partnerName, rootFolder }: { partnerId: number; partnerName: string; rootFolder: string }) {
  const [grants, setGrants] = useState<Permission[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const narrow = useNarrow();
  const [done, setDone] = useState<string | undefined>();
  const [path, setPath] = useState(rootFolder);
  const [level, setLevel] = useState<PartnerLevel>('full');
  const [recursive, setRecursive] = useState(true);
  const [pending, setPending] = useState<{ grant: PartnerGrant; difference: AccessChange[] } | undefined>();
  const [removing, setRemoving] = useState<{ grant: Permission; difference: AccessChange[] } | undefined>();

  const load = useCallback(() => {
    listPartnerPermissions(partnerId).then(setGrants, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The Partner\'s permissions could not be listed.'));
  }, [partnerId]);
  useEffect(load, [load]);

  async function attempt(action: () => Promise<void>) {
    setError(undefined);
    setDone(undefined);
    try {
      await action();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'That did not work.');
    }
  }

  function review(event: FormEvent) {
    event.preventDefault();
    void attempt(async () => {
      const grant: PartnerGrant = { partner_id: partnerId, path: path.trim().replace(/^\/+|\/+$/g, ''), permission: level, recursive };
      const difference = await previewGrant(grant);
      setRemoving(undefined);
      setPending({ grant, difference });
    });
  }

  function add(grant: PartnerGrant) {
    void attempt(async () => {
      setPending(undefined);
      await createPartnerPermission(grant);
      setDone('The permission was added.');
      load();
    });
  }

  function reviewRemoval(grant: Permission) {
    void attempt(async () => {
      const difference = await previewGrantRemoval(grant.id);
      setPending(undefined);
      setRemoving({ grant, difference });
    });
  }

  function remove(grant: Permission) {
    void attempt(async () => {
      setRemoving(undefined);
      await deletePermission(grant.id);
      setDone('The permission was removed.');
      load();
    });
  }

  const titleId = `partner-${partnerId}-grants`;
  return (
    <Stack component="section" aria-labelledby={titleId}>
      <Title order={2} size="h3" id={titleId} style={{ wordBreak: 'break-word' }}>Folder permissions of {partnerName}</Title>
      <Text size="sm" c="dimmed">Its users reach exactly what these give, and only inside its root folder.</Text>
      {error !== undefined && <Alert color="red" role="alert" style={{ wordBreak: 'break-word' }}>{error}</Alert>}
      {done !== undefined && <Alert color="teal" role="status">{done}</Alert>}
      {grants !== undefined && grants.length === 0 && <Text c="dimmed">No permissions yet: its users reach no file.</Text>}
      {grants !== undefined && grants.length > 0 && (
        // On a phone: whether it reaches the subfolders is said beneath its level.
        <Table.ScrollContainer minWidth={narrow ? 0 : 480}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Folder</Table.Th>
                <Table.Th scope="col">Level</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Subfolders</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {grants.map((g) => (
                <Table.Tr key={g.id} data-partner-grant={g.path}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{g.path}</Table.Td>
                  <Table.Td title={LEVEL_WORDS[g.permission].description}>
                    {levelName(g.permission)}
                    {narrow && <Text size="xs" c="dimmed">{g.recursive ? 'Subfolders included' : 'This folder only'}</Text>}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{g.recursive ? 'Included' : 'Not included'}</Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="subtle" color="red" aria-label={`Remove ${levelName(g.permission)} on ${g.path}`} onClick={() => reviewRemoval(g)}>Remove</Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <form onSubmit={review} aria-label={`Give ${partnerName} a folder permission`}>
        <Stack gap="xs">
          <Title order={3} size="h5">Add a permission</Title>
          <FolderPicker label="Folder" required value={path} onChange={setPath} description={`Inside its root folder, ${rootFolder}`} />
          <Select label="Level" allowDeselect={false} value={level} w={260} description={LEVEL_WORDS[level].description}
            data={PARTNER_LEVELS.map((l) => ({ value: l, label: LEVEL_WORDS[l].name }))}
            renderOption={({ option }) => (
              <div>
                <Text size="sm">{option.label}</Text>
                <Text size="xs" c="dimmed">{LEVEL_WORDS[option.value as PartnerLevel].description}</Text>
              </div>
            )}
            onChange={(v) => setLevel((v ?? 'full') as PartnerLevel)} />
          <Checkbox label="Also in subfolders" checked={recursive} onChange={(e) => setRecursive(e.currentTarget.checked)} />
          <Button type="submit" variant="default" w="fit-content" disabled={path.trim() === ''}>Review</Button>
        </Stack>
      </form>
      {/* A region, not an alert: the preview is asked for, not news to interrupt with. */}
      {pending !== undefined && (
        <Alert color="indigo" title="Before it applies" role="region" aria-label="Before it applies" data-testid="partner-grant-preview">
          <Stack gap="xs">
            <Text size="sm" style={{ wordBreak: 'break-word' }}>
              Give <strong>{levelName(pending.grant.permission)}</strong> on <strong>{pending.grant.path}</strong> to {partnerName}{pending.grant.recursive ? ', in subfolders too' : ', on this folder only'}.
              This Partner&apos;s permissions there that this one makes unnecessary are removed.
            </Text>
            <AccessDifference changes={pending.difference} />
            <Group>
              <Button size="xs" onClick={() => add(pending.grant)}>Add permission</Button>
              <Button size="xs" variant="default" onClick={() => setPending(undefined)}>Cancel</Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {removing !== undefined && (
        <Alert color="orange" title="Before it applies" role="region" aria-label="Before it applies" data-testid="partner-grant-removal-preview">
          <Stack gap="xs">
            <Text size="sm" style={{ wordBreak: 'break-word' }}>
              Remove <strong>{levelName(removing.grant.permission)}</strong> on <strong>{removing.grant.path}</strong> from {partnerName}.
            </Text>
            <AccessDifference changes={removing.difference} />
            <Group>
              <Button size="xs" color="red.9" onClick={() => remove(removing.grant)}>Remove permission</Button>
              <Button size="xs" variant="default" onClick={() => setRemoving(undefined)}>Cancel</Button>
            </Group>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
