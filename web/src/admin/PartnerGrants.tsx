import { Alert, Button, Checkbox, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { createPartnerPermission, deletePermission, listPartnerPermissions, PARTNER_LEVELS, type PartnerLevel, type Permission } from '../api/permissions';
import { ConfirmDialog } from '../files/dialogs';
import { FolderPicker } from './FolderPicker';

/** The levels in words, as an administrator chooses them. */
const LEVEL_LABELS: Record<PartnerLevel, string> = {
  full: 'Full: read, write and delete',
  readonly: 'Read only',
  writeonly: 'Upload only',
  list: 'See names only',
};

/**
 * The folder permissions given to one Partner: its users reach exactly these, inside its root
 * folder. Added with a folder picker and a level (no administration, sharing or history: the
 * server refuses those to a Partner), removed after a confirmation.
 */
export function PartnerGrants({ partnerId, partnerName, rootFolder }: { partnerId: number; partnerName: string; rootFolder: string }) {
  const [grants, setGrants] = useState<Permission[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [path, setPath] = useState(rootFolder);
  const [level, setLevel] = useState<PartnerLevel>('full');
  const [recursive, setRecursive] = useState(true);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<Permission | undefined>();

  const load = useCallback(() => {
    listPartnerPermissions(partnerId).then(setGrants, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The Partner\'s permissions could not be listed.'));
  }, [partnerId]);
  useEffect(load, [load]);

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      await createPartnerPermission({ partner_id: partnerId, path: path.trim().replace(/^\/+|\/+$/g, ''), permission: level, recursive });
      setDone('The permission was added.');
      load();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The permission was not added.');
    } finally {
      setBusy(false);
    }
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
        <Table.ScrollContainer minWidth={480}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Folder</Table.Th>
                <Table.Th scope="col">Level</Table.Th>
                <Table.Th scope="col">Subfolders</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {grants.map((g) => (
                <Table.Tr key={g.id} data-partner-grant={g.path}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{g.path}</Table.Td>
                  <Table.Td>{g.permission}</Table.Td>
                  <Table.Td>{g.recursive ? 'Included' : 'Not included'}</Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="subtle" color="red" aria-label={`Remove ${g.permission} on ${g.path}`} onClick={() => setRemoving(g)}>Remove</Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <form onSubmit={add} aria-label={`Give ${partnerName} a folder permission`}>
        <Stack gap="xs">
          <Title order={3} size="h5">Add a permission</Title>
          <FolderPicker label="Folder" required value={path} onChange={setPath} description={`Inside its root folder, ${rootFolder}`} />
          <Select label="Level" allowDeselect={false} value={level} w={260}
            data={PARTNER_LEVELS.map((l) => ({ value: l, label: LEVEL_LABELS[l] }))}
            onChange={(v) => setLevel((v ?? 'full') as PartnerLevel)} />
          <Checkbox label="Also in subfolders" checked={recursive} onChange={(e) => setRecursive(e.currentTarget.checked)} />
          <Button type="submit" variant="default" w="fit-content" loading={busy} disabled={path.trim() === ''}>Add permission</Button>
        </Stack>
      </form>
      {removing !== undefined && (
        <ConfirmDialog opened title="Remove permission" confirmLabel="Remove" onClose={() => setRemoving(undefined)}
          onConfirm={async () => { await deletePermission(removing.id); setDone('The permission was removed.'); load(); }}>
          Remove <strong>{removing.permission}</strong> on <strong>{removing.path}</strong> from {partnerName}? Its users lose what it gave them.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
