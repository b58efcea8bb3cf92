import { ActionIcon, Alert, Button, Checkbox, Code, Group, Modal, PasswordInput, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { workspaceLabel } from '../api/account';
import { listWorkspaces, type Workspace } from '../api/site';
import {
  createProvider, deleteProvider, groupsOfWorkspace, linkAccount, listLinks, listProviders, unlinkAccount, updateProvider, type GroupMapping, type SsoLink,
  type SsoProvider, type SsoProviderSettings,
} from '../api/sso';
import { resolveUser } from '../api/users';
import { ConfirmDialog } from '../files/dialogs';
import { formatTime } from '../files/format';
import { RowActions } from '../layout/RowActions';
import { useNarrow } from '../layout/useNarrow';

type Dialog = { kind: 'edit'; provider?: SsoProvider } | { kind: 'remove'; provider: SsoProvider } | { kind: 'links'; provider: SsoProvider } | undefined;

const EMPTY: SsoProviderSettings = {
  label: '', issuer_url: '', client_id: '', scopes: 'openid profile email', username_claim: 'preferred_username', group_claim: null, group_mappings: [],
  provision_users: false, workspace_id: 0, enabled: true, display_on_login_page: true,
};

/**
 * Site settings, "Sign-in providers": the OpenID Connect providers people may sign in with
 * (docs/authentication.md#single-sign-on-openid-connect), to add, change and remove, and which
 * accounts there are linked to which Atrium users.
 */
export function SignInProviders() {
  const [providers, setProviders] = useState<SsoProvider[] | undefined>();
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [dialog, setDialog] = useState<Dialog>();
  const narrow = useNarrow();
  const load = useCallback(() => {
    listProviders().then(setProviders, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The sign-in providers could not be listed.'));
  }, []);
  useEffect(load, [load]);
  useEffect(() => {
    listWorkspaces().then(setWorkspaces, () => undefined);
  }, []);

  return (
    <Stack component="section" aria-labelledby="sign-in-providers-title" maw={720}>
      <Group justify="space-between">
        <Title order={2} size="h3" id="sign-in-providers-title">Sign-in providers</Title>
        <Button onClick={() => setDialog({ kind: 'edit' })}>Add a provider</Button>
      </Group>
      <Text size="sm">
        People can sign in to the console with an account at your organisation&apos;s identity provider (OpenID Connect), such as Keycloak, Microsoft Entra ID or Okta,
        instead of an Atrium password. The sign-in page shows a button for each provider that is turned on.
      </Text>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {providers !== undefined && providers.length === 0 && <Text size="sm" c="dimmed">No sign-in provider yet.</Text>}
      {providers !== undefined && providers.length > 0 && (
        <Table.ScrollContainer minWidth={narrow ? 0 : 480}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name on the sign-in page</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">Issuer</Table.Th>
                <Table.Th scope="col">State</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {providers.map((provider) => (
                <Table.Tr key={provider.id} data-provider={provider.label}>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{provider.label}</Table.Td>
                  <Table.Td visibleFrom="sm" style={{ wordBreak: 'break-all' }}>{provider.issuer_url}</Table.Td>
                  <Table.Td>{provider.enabled ? 'On' : 'Off'}{provider.user_count > 0 ? `, ${provider.user_count} user(s)` : ''}</Table.Td>
                  <Table.Td>
                    <RowActions row={provider.label} actions={[
                      { label: 'Edit', ariaLabel: `Edit ${provider.label}`, onClick: () => setDialog({ kind: 'edit', provider }) },
                      { label: 'Linked accounts', ariaLabel: `Linked accounts of ${provider.label}`, onClick: () => setDialog({ kind: 'links', provider }) },
                      { label: 'Remove', ariaLabel: `Remove ${provider.label}`, danger: true, onClick: () => setDialog({ kind: 'remove', provider }) },
                    ]} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {dialog?.kind === 'edit' && <ProviderDialog provider={dialog.provider} workspaces={workspaces} onClose={() => setDialog(undefined)} onSaved={load} />}
      {dialog?.kind === 'links' && <LinksDialog provider={dialog.provider} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'remove' && (
        <ConfirmDialog opened onClose={() => setDialog(undefined)} title="Remove the sign-in provider" confirmLabel="Remove"
          onConfirm={async () => {
            await deleteProvider(dialog.provider.id);
            load();
          }}>
          {`Nobody will sign in with ${dialog.provider.label} any more, and its linked accounts are forgotten. Users who sign in with it alone must be given another way in first.`}
        </ConfirmDialog>
      )}
    </Stack>
  );
}

function settingsOf(provider: SsoProvider): SsoProviderSettings {
  const { id: _id, client_secret_set: _secret, redirect_uri: _redirect, user_count: _count, ...settings } = provider;
  return settings;
}

/** Adds a provider (`provider` undefined) or changes one; only what changed is sent, and a secret only when one is typed. */
function ProviderDialog({ provider, workspaces, onClose, onSaved }: { provider?: SsoProvider; workspaces: Workspace[]; onClose(): void; onSaved(): void }) {
  const initial = provider === undefined ? EMPTY : settingsOf(provider);
  const [form, setForm] = useState<SsoProviderSettings>(initial);
  const [secret, setSecret] = useState('');
  const [groups, setGroups] = useState<{ id: number; name: string }[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<SsoProviderSettings>) => setForm((f) => ({ ...f, ...change }));
  useEffect(() => {
    groupsOfWorkspace(form.workspace_id).then(setGroups, () => setGroups([]));
  }, [form.workspace_id]);

  const setMapping = (index: number, change: Partial<GroupMapping>) =>
    set({ group_mappings: form.group_mappings.map((m, i) => (i === index ? { ...m, ...change } : m)) });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const wanted: SsoProviderSettings = { ...form, group_claim: form.group_claim === null || form.group_claim.trim() === '' ? null : form.group_claim.trim() };
      if (provider === undefined) {
        await createProvider({ ...wanted, ...(secret === '' ? {} : { client_secret: secret }) });
      } else {
        const changes: Partial<SsoProviderSettings> = secret === '' ? {} : { client_secret: secret };
        for (const key of Object.keys(wanted) as (keyof SsoProviderSettings)[]) {
          if (JSON.stringify(wanted[key]) !== JSON.stringify(initial[key])) Object.assign(changes, { [key]: wanted[key] });
        }
        if (Object.keys(changes).length > 0) await updateProvider(provider.id, changes);
      }
      onSaved();
      onClose();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The provider was not saved.');
    } finally {
      setBusy(false);
    }
  }

  const workspaceChoices = workspaces.map((w) => ({ value: String(w.id), label: workspaceLabel(workspaces, w.id) }));
  return (
    <Modal opened onClose={onClose} title={provider === undefined ? 'Add a sign-in provider' : `Change ${provider.label}`} size="lg">
      <form onSubmit={submit}>
        <Stack>
          {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
          {provider !== undefined && (
            <Text size="sm">Register this address at the provider as the application&apos;s redirect URI: <Code style={{ wordBreak: 'break-all' }}>{provider.redirect_uri}</Code></Text>
          )}
          {provider === undefined && <Text size="sm">Once it is added, its page here shows the redirect URI to register at the provider.</Text>}
          <TextInput label="Name on the sign-in page" description="The button reads “Sign in with” and this name." required value={form.label} onChange={(e) => set({ label: e.currentTarget.value })} data-autofocus />
          <TextInput label="Issuer URL" description="The provider's address for this application, exactly as the provider names it (https only), for example https://login.example.com/realms/staff."
            required value={form.issuer_url} onChange={(e) => set({ issuer_url: e.currentTarget.value })} />
          <TextInput label="Client ID" description="The id the provider gave Atrium when you registered it there." required value={form.client_id} onChange={(e) => set({ client_id: e.currentTarget.value })} />
          <PasswordInput label="Client secret" autoComplete="off"
            description={provider?.client_secret_set === true ? 'A secret is kept; it is never shown. Type a new one to replace it, or leave this empty to keep it.' : 'The secret the provider gave with the client ID. Leave it empty for a public client.'}
            value={secret} onChange={(e) => setSecret(e.currentTarget.value)} />
          <TextInput label="Scopes" description="What Atrium asks the provider for, separated by spaces; openid is always needed. Add the one that brings group names, if the provider has one."
            value={form.scopes} onChange={(e) => set({ scopes: e.currentTarget.value })} />
          <TextInput label="User name claim" description="Which claim holds the person's user name for a new Atrium user. When the account has none, its email is used."
            value={form.username_claim} onChange={(e) => set({ username_claim: e.currentTarget.value })} />
          <Checkbox label="Create an Atrium user at a person's first sign-in" description="Off, only people an administrator linked (or created as users of this provider) can sign in."
            checked={form.provision_users} onChange={(e) => set({ provision_users: e.currentTarget.checked })} />
          <Select label="Workspace new users join" description="New users are created here, and the groups below are this Workspace's groups."
            data={workspaceChoices} value={String(form.workspace_id)} allowDeselect={false}
            onChange={(value) => set({ workspace_id: Number(value ?? 0), group_mappings: [] })} />
          <TextInput label="Group claim" description="Which claim lists the person's groups at the provider (often “groups”). Empty: groups are not set from the provider."
            value={form.group_claim ?? ''} onChange={(e) => set({ group_claim: e.currentTarget.value })} />
          <Stack gap="xs" role="group" aria-labelledby="group-mapping-title">
            <Text size="sm" fw={500} id="group-mapping-title">Groups from the provider</Text>
            <Text size="sm">At every sign-in, a person joins each Atrium group whose value their group claim carries, and leaves those it no longer carries. Other groups are never touched.</Text>
            {form.group_mappings.map((mapping, index) => (
              <Group key={index} align="flex-end" wrap="nowrap">
                <TextInput label={`Value ${index + 1} in the claim`} value={mapping.claim_value} onChange={(e) => setMapping(index, { claim_value: e.currentTarget.value })} style={{ flex: 1 }} />
                <Select label={`Atrium group for value ${index + 1}`} data={groups.map((g) => ({ value: String(g.id), label: g.name }))} value={String(mapping.group_id)}
                  allowDeselect={false} onChange={(value) => setMapping(index, { group_id: Number(value) })} style={{ flex: 1 }} />
                <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove value ${index + 1}`}
                  onClick={() => set({ group_mappings: form.group_mappings.filter((_, i) => i !== index) })}>×</ActionIcon>
              </Group>
            ))}
            <Button variant="default" w="fit-content" disabled={groups.length === 0}
              onClick={() => set({ group_mappings: [...form.group_mappings, { claim_value: '', group_id: groups[0]?.id ?? 0 }] })}>Add a group</Button>
          </Stack>
          <Checkbox label="Turned on" description="Off, nobody signs in with this provider; its settings and links stay." checked={form.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
          <Checkbox label="Show on the sign-in page" checked={form.display_on_login_page} onChange={(e) => set({ display_on_login_page: e.currentTarget.checked })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>Save</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Which Atrium users which accounts at the provider are. An existing user is linked here, by its
 * account's subject: a refused first sign-in's History record names it.
 */
function LinksDialog({ provider, onClose }: { provider: SsoProvider; onClose(): void }) {
  const [links, setLinks] = useState<SsoLink[] | undefined>();
  const [user, setUser] = useState('');
  const [subject, setSubject] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    listLinks(provider.id).then(setLinks, (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The links could not be listed.'));
  }, [provider.id]);
  useEffect(load, [load]);

  async function link(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const found = await resolveUser(user.trim());
      if (found === undefined) throw new Error(`There is no user named “${user.trim()}”. Type an exact user name, or # and a user id.`);
      await linkAccount(provider.id, found.id, subject.trim());
      setUser('');
      setSubject('');
      load();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The account was not linked.');
    } finally {
      setBusy(false);
    }
  }

  async function unlink(id: number) {
    setError(undefined);
    try {
      await unlinkAccount(provider.id, id);
      load();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The account was not unlinked.');
    }
  }

  return (
    <Modal opened onClose={onClose} title={`Accounts linked at ${provider.label}`} size="lg">
      <Stack>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        {links !== undefined && links.length === 0 && <Text size="sm" c="dimmed">No account is linked yet.</Text>}
        {links !== undefined && links.length > 0 && (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">User</Table.Th>
                <Table.Th scope="col">Account (subject)</Table.Th>
                <Table.Th scope="col">Last sign-in</Table.Th>
                <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {links.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{l.username}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{l.subject}</Table.Td>
                  <Table.Td>{l.last_sign_in_at === null ? 'never' : formatTime(l.last_sign_in_at)}</Table.Td>
                  <Table.Td><Button size="xs" variant="subtle" color="red" aria-label={`Unlink ${l.username}`} onClick={() => void unlink(l.id)}>Unlink</Button></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <form onSubmit={link}>
          <Stack>
            <Text size="sm">
              A person whose user name at the provider is already an Atrium user&apos;s is not signed in by that name alone. Link their account to the user here:
              the subject is in History, in the record of their refused sign-in.
            </Text>
            <TextInput label="Atrium user" description="A user name, or # and a user id." required value={user} onChange={(e) => setUser(e.currentTarget.value)} />
            <TextInput label="Account at the provider (subject)" description="The account's “sub” claim, as History shows it." required value={subject} onChange={(e) => setSubject(e.currentTarget.value)} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>Close</Button>
              <Button type="submit" loading={busy}>Link</Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Modal>
  );
}
