import { Alert, Badge, Button, Center, Code, Group, Loader, Modal, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { listRuns, readRunLog, type AutomationRun } from '../api/automations';
import { formatTime } from '../files/format';
import { useNarrow } from '../layout/useNarrow';
import { RUN_STATUS } from './automation-words';

/** A run's length in words: "0.4 s", "2 min 5 s"; a dash until it ends. */
function runtimeOf(run: AutomationRun): string {
  if (run.runtime === null) return '—';
  if (run.runtime < 60) return `${Number(run.runtime.toFixed(1))} s`;
  const minutes = Math.floor(run.runtime / 60);
  return `${minutes} min ${Math.round(run.runtime - minutes * 60)} s`;
}

/** What a run did, in one line: for a phone, where its columns are not shown. */
function runInWords(run: AutomationRun): string {
  const did = `${run.successful_operations} done, ${run.failed_operations} failed`;
  return run.runtime === null ? did : `Took ${runtimeOf(run)}: ${did}`;
}

export function RunStatus({ status }: { status: string }) {
  const shown = RUN_STATUS[status as keyof typeof RUN_STATUS] ?? { label: status, color: 'gray.7' };
  return <Badge color={shown.color} variant="filled">{shown.label}</Badge>;
}

/**
 * The runs of one automation, newest first, each with its log a click away. `reload` changes when
 * a run was just queued, so the list is read again.
 */
export function AutomationRuns({ automationId, reload }: { automationId: number; reload: number }) {
  const [runs, setRuns] = useState<AutomationRun[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [reading, setReading] = useState<AutomationRun | undefined>();
  const narrow = useNarrow();

  const load = useCallback((signal?: AbortSignal) => {
    setError(undefined);
    listRuns(automationId, signal).then(setRuns, (caught: unknown) => {
      if (!signal?.aborted) setError(caught instanceof Error ? caught.message : 'The runs could not be listed.');
    });
  }, [automationId]);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load, reload]);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">Runs</Title>
        <Button variant="default" size="xs" onClick={() => load()}>Refresh</Button>
      </Group>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {runs === undefined && error === undefined && <Center><Loader size="sm" aria-label="Loading" /></Center>}
      {runs !== undefined && runs.length === 0 && <Text c="dimmed">No runs yet.</Text>}
      {runs !== undefined && runs.length > 0 && (
        // On a phone: its status, when it started (with what it did beneath), and its log.
        <Table.ScrollContainer minWidth={narrow ? 0 : 520}>
          <Table aria-label="Runs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Started</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Took</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Done</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Failed</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Log</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((run) => (
                <Table.Tr key={run.id} data-run={run.id}>
                  <Table.Td><RunStatus status={run.status} /></Table.Td>
                  <Table.Td>
                    {formatTime(run.created_at)}
                    {narrow && <Text size="xs" c="dimmed">{runInWords(run)}</Text>}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{runtimeOf(run)}</Table.Td>
                  <Table.Td visibleFrom="sm">{run.successful_operations}</Table.Td>
                  <Table.Td visibleFrom="sm">{run.failed_operations}</Table.Td>
                  <Table.Td><Button size="xs" variant="subtle" onClick={() => setReading(run)} aria-label={`Log of the run of ${formatTime(run.created_at)}`}>Log</Button></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {reading !== undefined && <RunLog run={reading} onClose={() => setReading(undefined)} />}
    </Stack>
  );
}

/** A run's log, shown as text. */
function RunLog({ run, onClose }: { run: AutomationRun; onClose(): void }) {
  const [log, setLog] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    readRunLog(run).then(setLog, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The log could not be read.'));
  }, [run]);
  return (
    <Modal opened onClose={onClose} title={`Log of the run of ${formatTime(run.created_at)}`} size="lg">
      <Stack>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        {log === undefined && error === undefined && <Center><Loader size="sm" aria-label="Loading" /></Center>}
        {log !== undefined && (log === ''
          ? <Text c="dimmed">The log is empty{run.status === 'queued' ? ': the run has not started yet' : ''}.</Text>
          : <Code block data-testid="run-log" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: '60vh', overflow: 'auto' }}>{log}</Code>)}
      </Stack>
    </Modal>
  );
}
