import { Alert, Anchor, Badge, Button, Center, Code, Group, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { listGroups } from '../api/groups';
import { deletePartner, getPartner, listPartners, type Partner } from '../api/partners';
import { getUser } from '../api/users';
import { PartnerDialog } from '../admin/PartnerDialog';
import { PartnerGrants } from '../admin/PartnerGrants';
import { PartnerUsers } from '../admin/PartnerUsers';
import { ConfirmDialog } from '../files/dialogs';
import { useAuthority } from '../session/authority';
import { useNarrow } from '../layout/useNarrow';
import { useSession } from '../session/session';

/**
 * Site and Workspace Administrators: the Partners of the Workspace the console works in, to
 * create, and one Partner (`/admin/partners/<id>`) to edit, delete, and manage its users and
 * folder permissions.
 */
export function PartnersPage() {
  const { partnerId } = useParams();
  const partnerUser = useAuthority().partnerId !== null;
  const id = Number(partnerId);
  // A Partner user administers nothing (an address typed or kept from another person's session).
  if (partnerUser) return <Text c="dimmed">Partner users have no administration.</Text>;
  return partnerId !== undefined && Number.isSafeInteger(id) && id > 0 ? <PartnerScreen id={id} /> : <PartnerList />;
}

function PartnerList() {
  const { workspaceId } = useSession();
  const navigate = useNavigate();
  const [partners, setPartners] = useState<Partner[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const narrow = useNarrow();

  const load = useCallback(() => {
    listPartners(workspaceId ?? 0).then(setPartners, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The Partners could not be listed.'));
  }, [workspaceId]);
  useEffect(load, [load]);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Partners</Title>
        <Button onClick={() => setCreating(true)}>New Partner</Button>
      </Group>
      <Text size="sm" c="dimmed">Outside organisations this Workspace exchanges files with. Each Partner&apos;s users are confined to its root folder and reach only what its folder permissions give.</Text>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {partners === undefined && error === undefined && <Center><Loader size="sm" aria-label="Loading" /></Center>}
      {partners !== undefined && partners.length === 0 && <Text c="dimmed">No Partners yet.</Text>}
      {partners !== undefined && partners.length > 0 && (
        // On a phone: the name (with its number of users) and the root folder; what its Partner Admins may, in the wide table and on the Partner's page.
        <Table.ScrollContainer minWidth={narrow ? 0 : 560}>
          <Table highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Root folder</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Users</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Partner Admins may</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {partners.map((partner) => (
                <Table.Tr key={partner.id} data-partner={partner.name}>
                  <Table.Td style={{ wordBreak: 'break-word' }}>
                    <Anchor component={Link} to={`/admin/partners/${partner.id}`}>{partner.name}</Anchor>
                    {narrow && <Text size="xs" c="dimmed">{usersInWords(partner.user_ids.length)}</Text>}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{partner.root_folder}</Table.Td>
                  <Table.Td visibleFrom="sm">{partner.user_ids.length}</Table.Td>
                  <Table.Td visibleFrom="sm"><AdminRights partner={partner} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {creating && <PartnerDialog onClose={() => setCreating(false)} onSaved={(created) => navigate(`/admin/partners/${created.id}`)} />}
    </Stack>
  );
}

/** What the Partner lets its Partner Admins do, in short. */
function AdminRights({ partner }: { partner: Partner }) {
  if (!partner.allow_user_creation && !partner.allow_credential_changes) return <Text size="sm" c="dimmed">Nothing more than its users</Text>;
  return (
    <Group gap={4}>
      {partner.allow_user_creation && <Badge variant="light">Add and remove users</Badge>}
      {partner.allow_credential_changes && <Badge variant="light">Set passwords</Badge>}
    </Group>
  );
}

function PartnerScreen({ id }: { id: number }) {
  const { profile } = useSession();
  const navigate = useNavigate();
  const [partner, setPartner] = useState<Partner | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [dialog, setDialog] = useState<'edit' | 'delete' | undefined>();

  const load = useCallback(() => {
    getPartner(id).then(setPartner, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The Partner could not be read.'));
  }, [id]);
  useEffect(load, [load]);

  const back = <Anchor component={Link} to="/admin/partners" size="sm">← All Partners</Anchor>;
  if (partner === undefined) {
    return (
      <Stack>
        {back}
        {error === undefined ? <Center><Loader size="sm" aria-label="Loading" /></Center> : <Alert color="red" role="alert">{error}</Alert>}
      </Stack>
    );
  }
  return (
    <Stack>
      {back}
      <Group justify="space-between">
        <Title order={1} size="h2" style={{ wordBreak: 'break-word' }}>{partner.name}</Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => setDialog('edit')}>Edit</Button>
          <Button variant="subtle" color="red" onClick={() => setDialog('delete')}>Delete</Button>
        </Group>
      </Group>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      <PartnerFacts partner={partner} />
      <PartnerUsers partnerId={partner.id} partnerName={partner.name} selfId={profile?.userId} onChanged={load}
        rights={{ create: true, delete: true, setPassword: true, appointAdmins: true, onPartnerAdmins: true }} />
      <PartnerGrants key={partner.root_folder} partnerId={partner.id} partnerName={partner.name} rootFolder={partner.root_folder} />
      {dialog === 'edit' && <PartnerDialog partner={partner} onClose={() => setDialog(undefined)} onSaved={setPartner} />}
      {dialog === 'delete' && (
        <ConfirmDialog opened title="Delete Partner" confirmLabel="Delete Partner" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await deletePartner(partner.id); navigate('/admin/partners'); }}>
          Delete <strong>{partner.name}</strong>? Its {partner.user_ids.length === 1 ? 'user is' : `${partner.user_ids.length} users are`} deleted with it,
          with their sessions and keys. Its root folder, <strong>{partner.root_folder}</strong>, and the files in it stay.
        </ConfirmDialog>
      )}
    </Stack>
  );
}

/**
 * Who looks after the Partner, by name where the caller can see them (by id otherwise: a
 * responsible user may be one the caller cannot list).
 */
function useResponsibleNames(partner: Partner): { user: string; group: string } {
  const [names, setNames] = useState<{ user?: string; group?: string }>({});
  useEffect(() => {
    const controller = new AbortController();
    setNames({});
    const userId = partner.responsible_user_id;
    const groupId = partner.responsible_group_id;
    if (userId !== null) getUser(userId, controller.signal).then((u) => setNames((n) => ({ ...n, user: u.username })), () => undefined);
    if (groupId !== null) {
      listGroups().then((groups) => {
        const found = groups.find((g) => g.id === groupId);
        if (found !== undefined && !controller.signal.aborted) setNames((n) => ({ ...n, group: found.name }));
      }, () => undefined);
    }
    return () => controller.abort();
  }, [partner.responsible_user_id, partner.responsible_group_id]);
  return {
    user: partner.responsible_user_id === null ? '—' : names.user ?? `User #${partner.responsible_user_id}`,
    group: partner.responsible_group_id === null ? '—' : names.group ?? `Group #${partner.responsible_group_id}`,
  };
}

/** The Partner's settings at a glance, every text shown as text. */
function PartnerFacts({ partner }: { partner: Partner }) {
  const responsible = useResponsibleNames(partner);
  const rows: [string, ReactNode][] = [
    ['Root folder', <Code key="root" style={{ wordBreak: 'break-all' }}>{partner.root_folder}</Code>],
    ['Partner Admins may', <AdminRights key="rights" partner={partner} />],
    ['Tags', partner.tags === '' ? '—' : partner.tags],
    ['Allowed IP addresses', partner.allowed_ips === '' ? 'Any' : partner.allowed_ips.split('\n').join(', ')],
    ['Responsible user', responsible.user],
    ['Responsible group', responsible.group],
    ['Notes', partner.notes === undefined || partner.notes === '' ? '—' : partner.notes],
  ];
  return (
    <Table variant="vertical" withTableBorder layout="fixed" maw={720}>
      <VisuallyHidden component="caption">Settings of {partner.name}</VisuallyHidden>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" w={200}>{label}</Table.Th>
            <Table.Td style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function usersInWords(count: number): string {
  return count === 1 ? '1 user' : `${count} users`;
}
