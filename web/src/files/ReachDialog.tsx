import { Alert, Badge, Button, Group, List, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { reachOf, type ReachCause, type ReachRow } from '../api/reach';
import { levelName, LEVEL_WORDS } from '../words/permissions';

const ROLE_TEXT: Record<string, string> = { site_admin: 'Site Administrator', workspace_admin: 'Workspace Administrator', folder_admin: 'Folder Admin' };

/** One cause as words: a role, or the grant (level, path, how it names the user) it comes from. */
function describe(cause: ReachCause): string {
  if (cause.source === 'site_admin') return 'Site Administrator';
  if (cause.source === 'workspace_admin_flag') return 'Workspace Administrator (set on their account)';
  if (cause.source === 'hidden_grant') return 'a permission you may not see';
  const where = cause.path === '' ? 'the root' : `“${cause.path ?? ''}”`;
  const via = cause.applies === 'group' ? ` through the group ${cause.group_name ?? ''}`
    : cause.applies === 'all_of' ? ` as a member of all of ${cause.group_names.join(', ')}` : '';
  return `${levelName(cause.permission ?? '')} on ${where}${cause.recursive === false ? ' (this folder only)' : ''}${via}`;
}

/**
 * "Who can reach this?": every user who can reach a file or folder, with their level, their role
 * and the permissions that give it, as far as the caller may see them (GET /permissions/reach),
 * a page at a time.
 */
export function ReachDialog({ path, name, type, onClose }: { path: string; name: string; type: 'file' | 'directory'; onClose(): void }) {
  const [rows, setRows] = useState<ReachRow[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | undefined>();

  const load = useCallback(async (cursor: string | undefined) => {
    setLoading(true);
    try {
      const page = await reachOf(path, type, cursor);
      setRows((shown) => (cursor === undefined ? page.rows : [...shown, ...page.rows]));
      setNext(page.next);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Who can reach this could not be worked out.');
    } finally {
      setLoading(false);
    }
  }, [path, type]);
  useEffect(() => { void load(undefined); }, [load]);

  return (
    <Modal opened onClose={onClose} title="Who can reach this?" size="xl">
      <Stack>
        <Text style={{ overflowWrap: 'anywhere' }}>For <strong>{name}</strong></Text>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        {rows.length === 0 && !loading && error === undefined && <Text c="dimmed">No one you may see can reach this.</Text>}
        {rows.length > 0 && (
          <Table data-testid="reach">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">User</Table.Th>
                <Table.Th scope="col">Level</Table.Th>
                <Table.Th scope="col">Because of</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.user_id} data-reach={row.username}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{row.username}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Badge variant="light" style={{ textTransform: 'none' }} title={LEVEL_WORDS[row.permission as keyof typeof LEVEL_WORDS]?.description}>{levelName(row.permission)}</Badge>
                      {row.role !== null && <Badge variant="light" color="grape">{ROLE_TEXT[row.role] ?? row.role}</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <List size="sm" spacing={2}>{row.because.map((cause, i) => <List.Item key={i} style={{ wordBreak: 'break-word' }}>{describe(cause)}</List.Item>)}</List>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {loading && <Loader size="sm" aria-label="Loading" />}
        {next !== undefined && !loading && <Button variant="default" w="fit-content" onClick={() => void load(next)}>Show more</Button>}
      </Stack>
    </Modal>
  );
}
