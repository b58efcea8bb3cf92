import { Alert, Anchor, Badge, Button, Center, Code, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { deleteBundle, getBundle, listBundles, type Bundle } from '../api/bundles';
import { ConfirmDialog } from '../files/dialogs';
import { formatTime } from '../files/format';
import { CopyLinkButton, expiryInWords, Fact, sharedInWords, usesInWords } from '../shares/LinkFacts';
import { LinkRecords } from '../shares/LinkRecords';
import { QrCode } from '../shares/QrCode';
import { SendTo } from '../shares/SendTo';
import { ShareDialog } from '../shares/ShareDialog';
import { permissionInWords } from '../shares/share-words';
import { useAuthority } from '../session/authority';

/**
 * Everyone's share links (docs/sharing.md): a user's own, or every link of the Workspace to its
 * administrators, each with what it shares and how, to copy, edit and delete; and one link
 * (`/shared-links/<id>`) with whom it was for and what its visitors did.
 */
export function SharedLinksPage() {
  const { bundleId } = useParams();
  const id = Number(bundleId);
  return bundleId !== undefined && Number.isSafeInteger(id) && id > 0 ? <LinkScreen id={id} /> : <LinkList />;
}

const errorText = (caught: unknown, fallback: string) => (caught instanceof Error ? caught.message : fallback);

/** Each listed link's paths, read after the list (a listing leaves them out): one request each. */
function usePathsOf(bundles: Bundle[] | undefined): Map<number, string[]> {
  const [paths, setPaths] = useState(new Map<number, string[]>());
  useEffect(() => {
    if (bundles === undefined) return;
    const controller = new AbortController();
    for (const bundle of bundles) {
      getBundle(bundle.id, controller.signal).then(
        (whole) => setPaths((known) => new Map(known).set(bundle.id, whole.paths ?? [])),
        () => undefined,
      );
    }
    return () => controller.abort();
  }, [bundles]);
  return paths;
}

function LinkList() {
  const administrator = useAuthority().administrator;
  const [bundles, setBundles] = useState<Bundle[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'delete'; bundle: Bundle } | undefined>();
  const paths = usePathsOf(bundles);

  const load = useCallback(() => {
    listBundles().then(setBundles, (caught: unknown) => setError(errorText(caught, 'The links could not be listed.')));
  }, []);
  useEffect(load, [load]);

  return (
    <Stack>
      <Title order={1} size="h2">Shared links</Title>
      <Text size="sm" c="dimmed">
        {administrator ? 'Every share link of this Workspace' : 'The share links you made'}. Whoever has a link can use it, as its settings allow.
        Make one from a file&apos;s or folder&apos;s menu on the Files page: Share, or Request files.
      </Text>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {bundles === undefined && error === undefined && <Center><Loader size="sm" aria-label="Loading" /></Center>}
      {bundles !== undefined && bundles.length === 0 && <Text c="dimmed">No shared links yet.</Text>}
      {bundles !== undefined && bundles.length > 0 && (
        <Stack gap="sm" component="ul" aria-label="Shared links" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {bundles.map((bundle) => (
            <Paper component="li" key={bundle.id} withBorder p="sm" data-bundle={bundle.id}>
              <Stack gap="xs">
                <Anchor component={Link} to={`/shared-links/${bundle.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {sharedInWords(bundle, paths.get(bundle.id))}
                </Anchor>
                {bundle.description !== null && <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{bundle.description}</Text>}
                <SimpleGrid component="dl" cols={{ base: 2, sm: administrator ? 5 : 4 }} spacing="xs" verticalSpacing={4} m={0}>
                  <Fact label="Visitors may">{permissionInWords(bundle.permissions)}</Fact>
                  <Fact label="Expires">{expiryInWords(bundle)}</Fact>
                  <Fact label="Uses">{usesInWords(bundle)}</Fact>
                  <Fact label="Password">{bundle.password_protected ? 'Yes' : 'No'}</Fact>
                  {administrator && <Fact label="Made by">{bundle.username ?? 'a deleted user'}</Fact>}
                </SimpleGrid>
                <Group gap="xs">
                  <CopyLinkButton bundle={bundle} />
                  <Button variant="default" size="xs" onClick={() => setDialog({ kind: 'edit', bundle })}>Edit</Button>
                  <Button variant="subtle" color="red" size="xs" onClick={() => setDialog({ kind: 'delete', bundle })}>Delete</Button>
                </Group>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
      {dialog?.kind === 'edit' && <EditLink id={dialog.bundle.id} onClose={() => setDialog(undefined)} onSaved={load} />}
      {dialog?.kind === 'delete' && (
        <DeleteLink bundle={dialog.bundle} shared={sharedInWords(dialog.bundle, paths.get(dialog.bundle.id))} onClose={() => setDialog(undefined)} onDeleted={load} />
      )}
    </Stack>
  );
}

/** The edit dialog of a link, once the link is read whole (a listing leaves out its paths). */
function EditLink({ id, onClose, onSaved }: { id: number; onClose(): void; onSaved(bundle: Bundle): void }) {
  const [bundle, setBundle] = useState<Bundle | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    const controller = new AbortController();
    getBundle(id, controller.signal).then(setBundle, (caught: unknown) => setError(errorText(caught, 'The link could not be read.')));
    return () => controller.abort();
  }, [id]);
  if (error !== undefined) return <Alert color="red" role="alert" withCloseButton onClose={onClose}>{error}</Alert>;
  return bundle === undefined ? null : <ShareDialog target={{ kind: 'edit', bundle }} onClose={onClose} onSaved={onSaved} />;
}

function DeleteLink({ bundle, shared, onClose, onDeleted }: { bundle: Bundle; shared: string; onClose(): void; onDeleted(): void }) {
  return (
    <ConfirmDialog opened title="Delete share link" confirmLabel="Delete link" onClose={onClose}
      onConfirm={async () => { await deleteBundle(bundle.id); onDeleted(); }}>
      Delete the link to <strong>{shared}</strong>? It stops working at once, and what its visitors did is deleted with it. The files stay as they are.
    </ConfirmDialog>
  );
}

function LinkScreen({ id }: { id: number }) {
  const navigate = useNavigate();
  const administrator = useAuthority().administrator;
  const [bundle, setBundle] = useState<Bundle | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [dialog, setDialog] = useState<'edit' | 'delete' | undefined>();
  const [recipientsRead, setRecipientsRead] = useState(0);

  const load = useCallback(() => {
    getBundle(id).then(setBundle, (caught: unknown) => setError(errorText(caught, 'The link could not be read.')));
  }, [id]);
  useEffect(load, [load]);

  const back = <Anchor component={Link} to="/shared-links" size="sm">← All shared links</Anchor>;
  if (bundle === undefined) {
    return (
      <Stack>
        {back}
        {error === undefined ? <Center><Loader size="sm" aria-label="Loading" /></Center> : <Alert color="red" role="alert">{error}</Alert>}
      </Stack>
    );
  }
  const shared = sharedInWords(bundle, bundle.paths);
  const rows: [string, ReactNode][] = [
    ['Link', <Group key="url" gap="xs" wrap="wrap"><Code style={{ wordBreak: 'break-all' }}>{bundle.url}</Code><CopyLinkButton bundle={bundle} /></Group>],
    ['Visitors may', permissionInWords(bundle.permissions)],
    ['Description', bundle.description ?? '—'],
    ['Note (internal)', bundle.note ?? '—'],
    ['Expires', expiryInWords(bundle)],
    ['Starts working', bundle.start_access_on_date === null ? 'At once' : formatTime(bundle.start_access_on_date)],
    ['Uses', usesInWords(bundle)],
    ['Password', bundle.password_protected ? 'Yes' : 'No'],
    ['Visitors register first', bundle.require_registration ? 'Yes' : 'No'],
    ['Made', `${formatTime(bundle.created_at)}${administrator ? ` by ${bundle.username ?? 'a user since deleted'}` : ''}`],
  ];
  return (
    <Stack>
      {back}
      <Group justify="space-between" align="flex-start">
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{shared}</Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => setDialog('edit')}>Edit</Button>
          <Button variant="subtle" color="red" onClick={() => setDialog('delete')}>Delete</Button>
        </Group>
      </Group>
      {bundle.username === null && <Badge color="gray.7" variant="filled">Its creator was deleted: it does not work</Badge>}
      <Group align="flex-start" gap="lg" wrap="wrap">
        <Table variant="vertical" withTableBorder layout="fixed" maw={720} style={{ flex: '1 1 280px' }}>
          <VisuallyHidden component="caption">Settings of the link</VisuallyHidden>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row" w={120}>{label}</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <QrCode text={bundle.url} label="QR code of the link" size={160} />
      </Group>
      <SendTo bundleId={bundle.id} onRecorded={() => setRecipientsRead((n) => n + 1)} />
      <LinkRecords bundleId={bundle.id} reload={recipientsRead} />
      {dialog === 'edit' && <ShareDialog target={{ kind: 'edit', bundle }} onClose={() => setDialog(undefined)} onSaved={setBundle} />}
      {dialog === 'delete' && <DeleteLink bundle={bundle} shared={shared} onClose={() => setDialog(undefined)} onDeleted={() => navigate('/shared-links')} />}
    </Stack>
  );
}
