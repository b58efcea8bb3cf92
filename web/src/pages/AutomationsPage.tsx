import { Alert, Anchor, Badge, Button, Center, Code, CopyButton, Group, List, Loader, Modal, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { deleteAutomation, getAutomation, listAutomations, listRuns, runAutomationNow, type Automation, type AutomationRun } from '../api/automations';
import { AutomationDialog } from '../admin/AutomationDialog';
import { AutomationRuns, RunStatus } from '../admin/AutomationRuns';
import { TYPES, triggerInWords, whatItDoes } from '../admin/automation-words';
import { ConfirmDialog } from '../files/dialogs';
import { formatTime } from '../files/format';
import { useNarrow } from '../layout/useNarrow';
import { useAuthority } from '../session/authority';
import { useSession } from '../session/session';

/** The webhook secret as the API masks it after the answer that made it. */
const MASKED_SECRET = '********';

/** The webhook URL when this answer carries it whole: only the answer that gave the automation its webhook does. */
function wholeWebhookUrl(automation: Automation): string | undefined {
  return automation.webhook_url !== null && !automation.webhook_url.includes(MASKED_SECRET) ? automation.webhook_url : undefined;
}

/**
 * Site and Workspace Administrators: the automations of the Workspace the console works in
 * (docs/automations.md), to create, and one automation (`/admin/automations/<id>`) to read, edit,
 * run, and delete, with its runs and their logs.
 */
export function AutomationsPage() {
  const { automationId } = useParams();
  const partnerUser = useAuthority().partnerId !== null;
  const id = Number(automationId);
  // A Partner user administers nothing (an address typed or kept from another person's session).
  if (partnerUser) return <Text c="dimmed">Partner users have no administration.</Text>;
  return automationId !== undefined && Number.isSafeInteger(id) && id > 0 ? <AutomationScreen id={id} /> : <AutomationList />;
}

/** The latest run of each automation, read after the list (one request each, as many as are shown). */
function useLastRuns(automations: Automation[] | undefined): Map<number, AutomationRun | null> {
  const [last, setLast] = useState(new Map<number, AutomationRun | null>());
  useEffect(() => {
    if (automations === undefined) return;
    const controller = new AbortController();
    for (const automation of automations) {
      listRuns(automation.id, controller.signal, 1).then(
        ([run]) => setLast((known) => new Map(known).set(automation.id, run ?? null)),
        () => undefined,
      );
    }
    return () => controller.abort();
  }, [automations]);
  return last;
}

function AutomationList() {
  const { workspaceId } = useSession();
  const navigate = useNavigate();
  const [automations, setAutomations] = useState<Automation[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const [webhook, setWebhook] = useState<Automation | undefined>();
  const narrow = useNarrow();
  const lastRuns = useLastRuns(automations);

  const load = useCallback(() => {
    listAutomations(workspaceId ?? 0).then(setAutomations, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The automations could not be listed.'));
  }, [workspaceId]);
  useEffect(load, [load]);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Automations</Title>
        <Button onClick={() => setCreating(true)}>New automation</Button>
      </Group>
      <Text size="sm" c="dimmed">
        Work on this Workspace&apos;s files that runs by itself: copying or moving new uploads, deleting old files, creating folders, importing from URLs.
        Automations act with the server&apos;s authority, so only administrators of the Workspace see and manage them.
      </Text>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {automations === undefined && error === undefined && <Center><Loader size="sm" aria-label="Loading" /></Center>}
      {automations !== undefined && automations.length === 0 && <Text c="dimmed">No automations yet.</Text>}
      {automations !== undefined && automations.length > 0 && (
        // On a phone: the name with what it does and when beneath it, and its last run.
        <Table.ScrollContainer minWidth={narrow ? 0 : 640}>
          <Table highlightOnHover aria-label="Automations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">What it does</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">When it runs</Table.Th>
                <Table.Th scope="col">Last run</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {automations.map((automation) => {
                const last = lastRuns.get(automation.id);
                return (
                  <Table.Tr key={automation.id} data-automation={automation.name}>
                    <Table.Td style={{ wordBreak: 'break-word' }}>
                      <Anchor component={Link} to={`/admin/automations/${automation.id}`}>{automation.name === '' ? `Automation #${automation.id}` : automation.name}</Anchor>
                      {automation.disabled && <Badge ml="xs" color="gray.7" variant="filled">disabled</Badge>}
                      {narrow && <Text size="xs" c="dimmed">{whatItDoes(automation)}</Text>}
                      {narrow && <Text size="xs" c="dimmed">{triggerInWords(automation)}</Text>}
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }} visibleFrom="sm">{whatItDoes(automation)}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }} visibleFrom="sm">{triggerInWords(automation)}</Table.Td>
                    <Table.Td>{last === undefined ? '…' : last === null ? <Text size="sm" c="dimmed">Never</Text> : <RunStatus status={last.status} />}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {creating && (
        <AutomationDialog onClose={() => setCreating(false)} onSaved={(created) => {
          load();
          if (wholeWebhookUrl(created) !== undefined) setWebhook(created);
        }} />
      )}
      {webhook !== undefined && <WebhookUrlOnce automation={webhook} onClose={() => { setWebhook(undefined); navigate(`/admin/automations/${webhook.id}`); }} />}
    </Stack>
  );
}

/** The webhook URL of an automation just given its webhook trigger: shown this once, with a copy button. */
function WebhookUrlOnce({ automation, onClose }: { automation: Automation; onClose(): void }) {
  const url = wholeWebhookUrl(automation) ?? '';
  return (
    <Modal opened onClose={onClose} title="Its webhook URL">
      <Stack>
        <Text size="sm">Copy this URL now: it will not be shown again. A program that sends a request to it starts a run, so keep it like a password.</Text>
        <Code block data-testid="webhook-url" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{url}</Code>
        <Group justify="flex-end">
          <CopyButton value={url}>
            {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}
          </CopyButton>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function AutomationScreen({ id }: { id: number }) {
  const navigate = useNavigate();
  const [automation, setAutomation] = useState<Automation | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [dialog, setDialog] = useState<'edit' | 'delete' | undefined>();
  const [webhook, setWebhook] = useState<Automation | undefined>();
  const [runsRead, setRunsRead] = useState(0);
  const [running, setRunning] = useState(false);

  const load = useCallback(() => {
    getAutomation(id).then(setAutomation, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The automation could not be read.'));
  }, [id]);
  useEffect(load, [load]);

  async function runNow() {
    setRunning(true);
    setError(undefined);
    setNotice(undefined);
    try {
      await runAutomationNow(id);
      setNotice('A run was queued: it is listed below.');
      setRunsRead((n) => n + 1);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The automation could not be run.');
    } finally {
      setRunning(false);
    }
  }

  const back = <Anchor component={Link} to="/admin/automations" size="sm">← All automations</Anchor>;
  if (automation === undefined) {
    return (
      <Stack>
        {back}
        {error === undefined ? <Center><Loader size="sm" aria-label="Loading" /></Center> : <Alert color="red" role="alert">{error}</Alert>}
      </Stack>
    );
  }
  const name = automation.name === '' ? `Automation #${automation.id}` : automation.name;
  // The API refuses a manual run of an automation that follows file actions: it runs for a file.
  const runsOnActions = automation.trigger === 'action';
  return (
    <Stack>
      {back}
      <Group justify="space-between">
        <Title order={1} size="h2" style={{ wordBreak: 'break-word' }}>{name}</Title>
        <Group gap="xs">
          {!runsOnActions && <Button onClick={() => void runNow()} loading={running}>Run now</Button>}
          <Button variant="default" onClick={() => setDialog('edit')}>Edit</Button>
          <Button variant="subtle" color="red" onClick={() => setDialog('delete')}>Delete</Button>
        </Group>
      </Group>
      {runsOnActions && <Text size="sm" c="dimmed">It runs for each file an action happens to, so it cannot be run by hand.</Text>}
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {notice !== undefined && <Alert color="blue" role="status">{notice}</Alert>}
      <AutomationFacts automation={automation} />
      <AutomationRuns automationId={automation.id} reload={runsRead} />
      {dialog === 'edit' && (
        <AutomationDialog automation={automation} onClose={() => setDialog(undefined)} onSaved={(saved) => {
          setAutomation(saved);
          if (wholeWebhookUrl(saved) !== undefined) setWebhook(saved);
        }} />
      )}
      {webhook !== undefined && <WebhookUrlOnce automation={webhook} onClose={() => setWebhook(undefined)} />}
      {dialog === 'delete' && (
        <ConfirmDialog opened title="Delete automation" confirmLabel="Delete automation" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await deleteAutomation(automation.id); navigate('/admin/automations'); }}>
          Delete <strong>{name}</strong>? It stops running, and its runs and their logs are deleted with it. The files it worked on stay as they are.
        </ConfirmDialog>
      )}
    </Stack>
  );
}

/** The automation's settings at a glance, every text shown as text. */
function AutomationFacts({ automation }: { automation: Automation }) {
  const rows: [string, ReactNode][] = [
    ['What it does', whatItDoes(automation)],
    ['Type', TYPES.find((t) => t.value === automation.automation)?.label ?? automation.automation],
    ['When it runs', triggerInWords(automation)],
    ['Next run times', <NextRunTimes key="next" automation={automation} />],
    ['State', automation.disabled ? 'Disabled: it does not run on its trigger' : 'Enabled'],
    ['Description', automation.description === '' ? '—' : automation.description],
  ];
  if (automation.trigger === 'webhook') rows.push(['Webhook URL', <Code key="webhook" style={{ wordBreak: 'break-all' }}>{automation.webhook_url ?? '—'}</Code>]);
  if (automation.destinations.length > 0) rows.push(['Destinations', <List key="destinations" size="sm">{automation.destinations.map((d) => <List.Item key={d}><Code>{d}</Code></List.Item>)}</List>]);
  if (automation.automation !== 'create_folder' && automation.automation !== 'delete_file') {
    rows.push(['If a file is already there', automation.overwrite_files ? 'It is overwritten' : 'It is kept, and the file is left out']);
  }
  return (
    <Table variant="vertical" withTableBorder layout="fixed" maw={720}>
      <VisuallyHidden component="caption">Settings of {automation.name}</VisuallyHidden>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" w={160}>{label}</Table.Th>
            <Table.Td style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The next times a scheduled automation is due, in the viewer's local time; why there are none otherwise. */
function NextRunTimes({ automation }: { automation: Automation }) {
  if (automation.next_run_times.length > 0) {
    return (
      <Stack gap={4}>
        <List size="sm" data-testid="next-run-times">
          {automation.next_run_times.map((due) => <List.Item key={due}>{formatTime(due)}</List.Item>)}
        </List>
        <Text size="xs" c="dimmed">In your device&apos;s time zone.</Text>
      </Stack>
    );
  }
  if (automation.disabled) return <Text size="sm" c="dimmed">None while it is disabled</Text>;
  return <Text size="sm" c="dimmed">None: it does not run on a schedule</Text>;
}
