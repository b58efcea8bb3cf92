import { Alert, Button, Checkbox, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { listGroups, type Group as UserGroup } from '../api/groups';
import { createPartner, updatePartner, type Partner, type PartnerSettings } from '../api/partners';
import { getUser, resolveUser } from '../api/users';
import { FolderPicker } from './FolderPicker';

type Flag = 'allow_user_creation' | 'allow_credential_changes' | 'allow_bypassing_2fa_policies' | 'allow_providing_gpg_keys';

/** The Partner's settings in plain words: what each lets its Partner Admins do. */
const FLAGS: { flag: Flag; label: string; description: string }[] = [
  { flag: 'allow_user_creation', label: 'Partner Admins may add and remove its users', description: 'Without it, only administrators of this Workspace create and delete the Partner\'s users.' },
  { flag: 'allow_credential_changes', label: 'Partner Admins may set its users\' passwords', description: 'Without it, only administrators of this Workspace reset them.' },
  { flag: 'allow_bypassing_2fa_policies', label: 'Partner Admins may change two-factor sign-in requirements for its users', description: 'Kept for Files.com clients: Atrium has no two-factor sign-in yet.' },
  { flag: 'allow_providing_gpg_keys', label: 'Partner Admins may provide GPG keys', description: 'Kept for Files.com clients: Atrium has no GPG encryption yet.' },
];

const EMPTY: PartnerSettings = {
  name: '', root_folder: '', notes: '', tags: '', allowed_ips: '',
  allow_user_creation: false, allow_credential_changes: false, allow_bypassing_2fa_policies: false,
  allow_providing_gpg_keys: false, cc_emails_to_responsible_party: false,
  responsible_user_id: null, responsible_group_id: null,
};

function settingsOf(partner: Partner): PartnerSettings {
  const { id: _id, workspace_id: _workspace, user_ids: _users, partner_admin_ids: _admins, notes, ...rest } = partner;
  return { ...EMPTY, ...rest, notes: notes ?? '' };
}

/**
 * Creates a Partner (`partner` undefined) or changes one. Only what changed is sent on a change.
 * The responsible user is typed by user name or `#` and id, the responsible group chosen from the
 * Workspace's groups.
 */
export function PartnerDialog({ partner, onClose, onSaved }: { partner?: Partner; onClose(): void; onSaved(saved: Partner): void }) {
  const initial = partner === undefined ? EMPTY : settingsOf(partner);
  const [form, setForm] = useState<PartnerSettings>(initial);
  const [responsible, setResponsible] = useState(partner?.responsible_user_id == null ? '' : `#${partner.responsible_user_id}`);
  const [groups, setGroups] = useState<UserGroup[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<PartnerSettings>) => setForm((f) => ({ ...f, ...change }));

  useEffect(() => {
    const controller = new AbortController();
    listGroups().then(setGroups, () => undefined);
    // The responsible user by name where the caller can see them; by id otherwise.
    const userId = partner?.responsible_user_id;
    if (userId != null) getUser(userId, controller.signal).then((u) => setResponsible((typed) => (typed === `#${userId}` ? u.username : typed)), () => undefined);
    return () => controller.abort();
  }, [partner?.responsible_user_id]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const typed = responsible.trim();
      let responsibleUserId: number | null = null;
      if (typed !== '') {
        const found = await resolveUser(typed);
        if (found === undefined) throw new Error(`There is no user named “${typed}” that you can see. Type an exact user name, or # and a user id.`);
        responsibleUserId = found.id;
      }
      const wanted: PartnerSettings = { ...form, name: form.name.trim(), root_folder: form.root_folder.trim(), responsible_user_id: responsibleUserId };
      let saved: Partner;
      if (partner === undefined) {
        saved = await createPartner(wanted);
      } else {
        const changes: Partial<PartnerSettings> = {};
        for (const key of Object.keys(wanted) as (keyof PartnerSettings)[]) {
          if (wanted[key] !== initial[key]) Object.assign(changes, { [key]: wanted[key] });
        }
        saved = Object.keys(changes).length === 0 ? partner : await updatePartner(partner.id, changes);
      }
      onSaved(saved);
      onClose();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The Partner was not saved.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={partner === undefined ? 'New Partner' : `Edit ${partner.name}`} size="lg">
      <form onSubmit={submit}>
        <Stack>
          {error !== undefined && <Alert color="red" role="alert" style={{ wordBreak: 'break-word' }}>{error}</Alert>}
          <TextInput label="Name" required value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} data-autofocus />
          <FolderPicker label="Root folder" required value={form.root_folder} onChange={(root_folder) => set({ root_folder })}
            description="Its users see this folder as their whole site. A folder that does not exist yet is created." />
          <Stack gap="xs" role="group" aria-label="What its Partner Admins may do">
            <Text size="sm" fw={500}>What its Partner Admins may do</Text>
            {FLAGS.map(({ flag, label, description }) => (
              <Checkbox key={flag} label={label} description={description} checked={form[flag]} onChange={(e) => set({ [flag]: e.currentTarget.checked })} />
            ))}
          </Stack>
          <TextInput label="Responsible user" description="Who in your organisation looks after this Partner: an exact user name, or # and a user id" value={responsible}
            onChange={(e) => setResponsible(e.currentTarget.value)} />
          <Select label="Responsible group" clearable placeholder="None" value={form.responsible_group_id === null ? null : String(form.responsible_group_id)}
            data={groupOptions(groups, form.responsible_group_id)}
            onChange={(value) => set({ responsible_group_id: value === null ? null : Number(value) })} />
          <Checkbox label="Copy the emails its users get to the responsible user or group" checked={form.cc_emails_to_responsible_party}
            description="Kept for Files.com clients: Atrium sends no email yet."
            onChange={(e) => set({ cc_emails_to_responsible_party: e.currentTarget.checked })} />
          <TextInput label="Tags" description="Comma-separated: lowercase letters, digits and hyphens" value={form.tags} onChange={(e) => set({ tags: e.currentTarget.value })} />
          <Textarea label="Allowed IP addresses" autosize minRows={2} maxRows={6} value={form.allowed_ips} onChange={(e) => set({ allowed_ips: e.currentTarget.value })}
            description="Addresses or CIDR ranges, one a line; its users are also admitted from the site's and their own lists. Empty restricts nothing." />
          <Textarea label="Notes" description="Seen only by administrators of this Workspace" autosize minRows={2} maxRows={8} value={form.notes}
            onChange={(e) => set({ notes: e.currentTarget.value })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>{partner === undefined ? 'Create Partner' : 'Save'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The Workspace's groups, and the current responsible group even when it is not among them. */
function groupOptions(groups: UserGroup[], current: number | null): { value: string; label: string }[] {
  const options = groups.map((g) => ({ value: String(g.id), label: g.name }));
  if (current !== null && !groups.some((g) => g.id === current)) options.unshift({ value: String(current), label: `Group #${current}` });
  return options;
}
