import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { listActions, listDownloads, listRecipients, listRegistrations, type BundleAction, type BundleDownload, type BundleRecipient, type BundleRegistration } from '../api/bundles';
import { formatTime } from '../files/format';

interface Records {
  recipients: BundleRecipient[];
  registrations: BundleRegistration[];
  downloads: BundleDownload[];
  actions: BundleAction[];
}

/** What a visitor did, in words (docs/sharing.md#what-a-link-records). */
const ACTION_WORDS: Readonly<Record<string, string>> = {
  create: 'Uploaded',
  read: 'Read',
  update: 'Changed',
  destroy: 'Deleted',
  move: 'Moved',
  copy: 'Copied',
  registration: 'Registered',
};

const text = (value: string | null) => value ?? '—';

/**
 * A link's records: whom it was shared with, who registered on its page, and what its visitors
 * downloaded and did. `reload` changes when a recipient was recorded.
 */
export function LinkRecords({ bundleId, reload }: { bundleId: number; reload: number }) {
  const [records, setRecords] = useState<Records | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    Promise.all([listRecipients(bundleId, signal), listRegistrations(bundleId, signal), listDownloads(bundleId, signal), listActions(bundleId, signal)]).then(
      ([recipients, registrations, downloads, actions]) => setRecords({ recipients, registrations, downloads, actions }),
      (caught: unknown) => { if (!signal.aborted) setError(caught instanceof Error ? caught.message : 'The records of the link could not be read.'); },
    );
    return () => controller.abort();
  }, [bundleId, reload]);

  if (error !== undefined) return <Alert color="red" role="alert">{error}</Alert>;
  if (records === undefined) return null;
  return (
    <Stack>
      <RecordTable title="Recipients" empty="Not shared with anyone yet." headers={['Email', 'Name', 'Company', 'Note', 'Recorded']}
        rows={records.recipients.map((r) => [r.id, [r.recipient, text(r.name), text(r.company), text(r.note), formatTime(r.created_at)]])} />
      <RecordTable title="Registrations" empty="Nobody registered yet." headers={['Name', 'Email', 'Company', 'Address', 'When']}
        rows={records.registrations.map((r) => [r.id, [text(r.name), text(r.email), text(r.company), text(r.ip), formatTime(r.created_at)]])} />
      <RecordTable title="Downloads" empty="Nothing downloaded yet." headers={['What', 'Who', 'When']}
        rows={records.downloads.map((d) => [d.id, [
          d.download_method === 'full_zip' ? 'Everything, as a ZIP' : text(d.path),
          d.bundle_registration === null ? '—' : text(d.bundle_registration.name ?? d.bundle_registration.email),
          formatTime(d.created_at),
        ]])} />
      <RecordTable title="What visitors did" empty="Nothing yet." headers={['Action', 'Path', 'Who', 'When']}
        rows={records.actions.map((a) => [a.id, [
          ACTION_WORDS[a.action] ?? a.action,
          a.destination !== null && a.source !== null ? `${a.source} → ${a.destination}` : text(a.path),
          text(a.bundle_registration_name ?? a.bundle_registration_email),
          formatTime(a.created_at),
        ]])} />
    </Stack>
  );
}

/** A titled table of records, every value shown as text; a sentence when there are none. */
function RecordTable({ title, empty, headers, rows }: { title: string; empty: string; headers: string[]; rows: [number, ReactNode[]][] }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">{title}</Title>
      {rows.length === 0 ? <Text size="sm" c="dimmed">{empty}</Text> : (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label={title} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>{headers.map((h) => <Table.Th scope="col" key={h}>{h}</Table.Th>)}</Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(([id, cells]) => (
                <Table.Tr key={id}>{cells.map((cell, i) => <Table.Td key={headers[i]} style={{ overflowWrap: 'anywhere' }}>{cell}</Table.Td>)}</Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
