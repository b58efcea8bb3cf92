import { Alert, Badge, Button, Group, List, Loader, Modal, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { explain, type Explanation, type Reason } from '../api/explain';
import { resolveUser } from '../api/users';
import { capabilityWord, levelName } from '../words/permissions';

const SOURCE_TEXT: Record<Reason['source'], string> = {
  site_admin: 'as a Site Administrator, who may do anything',
  workspace_admin_flag: 'as an administrator of the Workspace (set on their account)',
  workspace_admin_grant: 'as an administrator of the Workspace, by a Folder Admin permission on its root',
  grant: 'through a permission',
  hidden_grant: 'through a permission you may not see',
};

const ROLE_TEXT: Record<string, string> = {
  site_admin: 'Site Administrator',
  workspace_admin: 'Workspace Administrator',
  folder_admin: 'Folder Admin',
};

function grantee(reason: Reason): string {
  if (reason.via === 'user') return 'given to the user';
  if (reason.via === 'group') return `given to the group ${reason.group_name ?? ''}`;
  if (reason.via === 'groups') return `given to members of all of ${(reason.group_names ?? []).join(', ')}`;
  return '';
}

/** What one reason gives: a capability in words, or a role. */
function given(reason: Reason): string {
  return reason.kind === 'role' ? `Role ${ROLE_TEXT[reason.role ?? ''] ?? reason.role ?? ''}` : capabilityWord(reason.capability ?? '').name;
}

/** Where a reason comes from: the same for every capability one grant (or one role) gives. */
function because(reason: Reason): string {
  if (reason.source !== 'grant') return SOURCE_TEXT[reason.source];
  const scope = reason.recursive === false ? ' (this folder only)' : '';
  return `${levelName(reason.permission ?? '')} on “${reason.path === '' ? 'the root' : reason.path ?? ''}”${scope}, ${grantee(reason)}`;
}

/**
 * The reasons as sentences, one per source: a grant that gives four capabilities is one line
 * naming the four, not four lines naming the grant ("See, Download, Upload: Full access on …").
 */
function grouped(reasons: Reason[]): string[] {
  const bySource = new Map<string, string[]>();
  for (const reason of reasons) {
    const source = because(reason);
    const what = given(reason);
    const list = bySource.get(source) ?? [];
    if (!list.includes(what)) list.push(what);
    bySource.set(source, list);
  }
  return [...bySource].map(([source, what]) => `${what.join(', ')}: ${source}`);
}

/**
 * "Why can this person reach this?": the engine's explanation for the caller, or, for an
 * administrator, for a user they administer, drawn as the grants that give each capability.
 */
export function ExplainDialog({ path, name, forOthers, onClose }: { path: string; name: string; forOthers: boolean; onClose(): void }) {
  const [username, setUsername] = useState('');
  const [result, setResult] = useState<Explanation | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);

  const run = useCallback(async (forUser: string) => {
    setLoading(true);
    setError(undefined);
    try {
      const user = forUser === '' ? undefined : await resolveUser(forUser);
      if (forUser !== '' && user === undefined) throw new Error(`No user named “${forUser}” is visible to you (or type # and a user id).`);
      setResult(await explain(path, user?.id));
    } catch (caught) {
      setResult(undefined);
      setError(caught instanceof Error ? caught.message : 'No explanation could be given.');
    } finally {
      setLoading(false);
    }
  }, [path]);
  useEffect(() => { void run(''); }, [run]);

  function submit(event: FormEvent) {
    event.preventDefault();
    void run(username.trim());
  }

  const roles = result === undefined ? [] : [result.site_admin && 'Site Administrator', result.workspace_admin && 'Workspace Administrator', result.folder_admin && 'Folder Admin'].filter((r): r is string => r !== false);
  return (
    <Modal opened onClose={onClose} title="Why can this be reached?" size="lg">
      <Stack>
        <Text style={{ overflowWrap: 'anywhere' }}>For <strong>{name}</strong></Text>
        {forOthers && <form onSubmit={submit} aria-label="Explain for a user">
          <Group align="flex-end">
            <TextInput label="For the user" description="Leave empty for yourself" value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
            <Button type="submit" variant="default">Explain</Button>
          </Group>
        </form>}
        {loading && <Loader size="sm" aria-label="Loading" />}
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        {result !== undefined && !loading && (
          <Stack gap="xs" data-testid="explanation">
            <Group gap="xs">
              <Text fw={600}>Can:</Text>
              {result.capabilities.length === 0 ? <Text>nothing</Text> : result.capabilities.map((c) => (
                <Tooltip key={c} label={capabilityWord(c).description} events={{ hover: true, focus: true, touch: true }}>
                  <Badge variant="light" tabIndex={0} style={{ textTransform: 'none' }} data-capability={c}>{capabilityWord(c).name}</Badge>
                </Tooltip>
              ))}
              {roles.map((r) => <Badge key={r} color="grape" variant="light">{r}</Badge>)}
            </Group>
            <Title order={3} size="h5">Because of</Title>
            {result.reasons.length === 0 ? <Text c="dimmed">No permission reaches this.</Text> : (
              <List spacing={4}>{grouped(result.reasons).map((line) => <List.Item key={line} style={{ wordBreak: 'break-word' }}>{line}</List.Item>)}</List>
            )}
            {result.near_misses.length > 0 && (
              <>
                <Title order={3} size="h5">Grants that do not apply</Title>
                <List spacing={4}>
                  {result.near_misses.map((m) => (
                    <List.Item key={m.id} style={{ wordBreak: 'break-word' }}>
                      {levelName(m.permission)} on “{m.path}”: {m.reasons.map((r) => r.code === 'missing_groups' ? `not a member of ${(r.missing_group_names ?? []).join(', ')}` : r.code.replace(/_/g, ' ')).join('; ')}
                    </List.Item>
                  ))}
                </List>
              </>
            )}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
