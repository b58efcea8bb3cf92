import { Alert, Button, Code, CopyButton, Group, List, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { createKey } from '../api/account';
import { getConnectionDetails, type ConnectionDetails } from '../api/connect';

/** A value to copy: shown as code, with a button that says what it copies. */
function Copyable({ label, value, block = false }: { label: string; value: string; block?: boolean }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code block={block} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap', flex: 1, minWidth: 0 }} data-copy={label}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => <Button size="xs" variant="default" onClick={copy} aria-label={`Copy ${label}`} style={{ flexShrink: 0 }}>{copied ? 'Copied' : 'Copy'}</Button>}
      </CopyButton>
    </Group>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">{title}</Title>
      {children}
    </Stack>
  );
}

/** `host` as a command line names it: an IPv6 address in brackets. */
function hostForCommand(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * How to reach one's files from other tools (docs/webdav.md, docs/sftp.md): the WebDAV URL, the
 * SFTP host, port and host keys as the server reports them (GET /connection_details), ready-made
 * commands with the person's own user name, the steps for Finder and File Explorer, and an API key
 * made for a tool, so that no tool needs the person's own password.
 */
export function ConnectPanel({ username, onKeyCreated }: { username: string; onKeyCreated(): void }) {
  const [details, setDetails] = useState<ConnectionDetails | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [making, setMaking] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    getConnectionDetails(controller.signal).then(setDetails, (caught: unknown) => {
      if (!controller.signal.aborted) setError(caught instanceof Error ? caught.message : 'The connection details could not be read.');
    });
    return () => controller.abort();
  }, []);

  const url = details?.webdav_url ?? '';
  const sftp = details?.sftp_enabled === true && details.sftp_host !== undefined && details.sftp_port !== undefined
    ? { host: details.sftp_host, port: details.sftp_port, fingerprints: details.sftp_host_key_fingerprints ?? [] }
    : undefined;
  return (
    <Stack component="section" aria-labelledby="connect-title" data-testid="connect-panel">
      <Title order={2} size="h3" id="connect-title">Connect other tools</Title>
      <Text size="sm" c="dimmed">
        Reach your files from a desktop, a sync tool or a script. Sign in with your user name and password, or better, with an API key made for
        the tool: it can be revoked on its own, and it can be limited to files and folders.
      </Text>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {details !== undefined && (
        <>
          <Group>
            <Button variant="default" onClick={() => setMaking(true)}>Create an API key for a tool</Button>
          </Group>
          <Section title="WebDAV">
            <Copyable label="WebDAV URL" value={url} />
            {url.startsWith('http:') && (
              <Text size="sm" c="dimmed">This address is plain HTTP: Windows will not send a password over it, and others can read it on the way. Ask your administrator for an HTTPS address.</Text>
            )}
          </Section>
          <Section title="SFTP">
            {sftp === undefined ? <Text size="sm">SFTP is not turned on on this server.</Text> : (
              <>
                <Table withRowBorders={false} verticalSpacing={2} data-testid="sftp-details">
                  <Table.Tbody>
                    <Table.Tr><Table.Th scope="row" w={110}>Host</Table.Th><Table.Td><Code>{sftp.host}</Code></Table.Td></Table.Tr>
                    <Table.Tr><Table.Th scope="row">Port</Table.Th><Table.Td><Code>{sftp.port}</Code></Table.Td></Table.Tr>
                    <Table.Tr><Table.Th scope="row">User name</Table.Th><Table.Td><Code>{username}</Code></Table.Td></Table.Tr>
                  </Table.Tbody>
                </Table>
                <Text size="sm">The first time a tool connects it shows the server's host key. Go on only if it is one of these:</Text>
                <List size="sm" data-testid="sftp-fingerprints">
                  {sftp.fingerprints.map((fingerprint) => <List.Item key={fingerprint}><Code style={{ wordBreak: 'break-all' }}>{fingerprint}</Code></List.Item>)}
                </List>
                <Text size="sm">With OpenSSH (macOS, Linux, Windows 10 and later), in a terminal:</Text>
                <Copyable label="sftp command" value={`sftp -P ${sftp.port} ${username}@${hostForCommand(sftp.host)}`} />
              </>
            )}
          </Section>
          <Section title="rclone">
            <Text size="sm">Make a remote named <Code>atrium</Code> (rclone asks nothing more; put your password or an API key in place of PASSWORD), then list it:</Text>
            <Copyable label="rclone command" block
              value={`rclone config create atrium webdav url=${url} vendor=owncloud user=${username} pass=PASSWORD --obscure\nrclone lsf atrium:`} />
          </Section>
          <Section title="macOS Finder">
            <List type="ordered" size="sm">
              <List.Item>In Finder choose <strong>Go › Connect to Server…</strong> (⌘K).</List.Item>
              <List.Item>Enter <Code>{url}</Code> and click <strong>Connect</strong>.</List.Item>
              <List.Item>Choose <strong>Registered User</strong> and enter your user name and password (or an API key as the name, and any password).</List.Item>
            </List>
          </Section>
          <Section title="Windows File Explorer">
            <List type="ordered" size="sm">
              <List.Item>Right-click <strong>This PC › Map network drive…</strong>.</List.Item>
              <List.Item>Choose a drive letter and enter <Code>{url}</Code> as the folder.</List.Item>
              <List.Item>Tick <strong>Connect using different credentials</strong>, click <strong>Finish</strong>, and enter your user name and password.</List.Item>
            </List>
            <Text size="sm" c="dimmed">Windows connects over HTTPS only, and copies files of up to about 50 MB unless its WebClient settings are changed (docs/webdav.md).</Text>
          </Section>
        </>
      )}
      {making && <ToolKeyDialog onClose={() => setMaking(false)} onCreated={onKeyCreated} />}
    </Stack>
  );
}

/** A key for one tool, limited to files and folders (what a file tool needs), its secret shown once: the key creation of the API keys section. */
function ToolKeyDialog({ onClose, onCreated }: { onClose(): void; onCreated(): void }) {
  const [name, setName] = useState('File tool');
  const [secret, setSecret] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      setSecret((await createKey(0, name.trim(), 'files_only')).key);
      onCreated();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The key was not created.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title="An API key for a tool">
      {secret === undefined ? (
        <form onSubmit={create}>
          <Stack>
            <Text size="sm">The key reaches files and folders only, as you may. Revoke it under API keys when the tool no longer needs it.</Text>
            {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
            <TextInput label="Key name" description="Which tool it is for, to know it again" required value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>Cancel</Button>
              <Button type="submit" loading={busy} disabled={name.trim() === ''}>Create key</Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Stack>
          <Text size="sm">Copy the key now: it is not shown again. Over SFTP use it as the password; over WebDAV as the user name, with any password.</Text>
          <Copyable label="API key" value={secret} block />
          <Group justify="flex-end"><Button onClick={onClose}>Done</Button></Group>
        </Stack>
      )}
    </Modal>
  );
}
