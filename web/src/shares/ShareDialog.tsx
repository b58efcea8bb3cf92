import { Alert, Button, Checkbox, Code, Group, Modal, NumberInput, PasswordInput, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { createBundle, updateBundle, type Bundle, type BundlePermission, type BundleSettings } from '../api/bundles';
import { ApiError } from '../api/client';
import { LinkToHandOver } from './LinkToHandOver';
import { FILE_PERMISSIONS, FOLDER_PERMISSIONS, isoOfLocalInput, localInputOf, PERMISSION_WORDS, takesUploads } from './share-words';

/** What the dialog shares: a file or folder of the Files page (a new link), or a link to edit. */
export type ShareTarget =
  | { kind: 'new'; path: string; name: string; folder: boolean; request: boolean }
  | { kind: 'edit'; bundle: Bundle };

interface Form {
  permission: BundlePermission;
  description: string;
  note: string;
  expires: string;
  starts: string;
  maxUses: number | '';
  password: string;
  removePassword: boolean;
  requireRegistration: boolean;
  pathTemplate: string;
  separateByFolder: boolean;
  allowFolders: boolean;
}

function formOf(target: ShareTarget): Form {
  if (target.kind === 'new') {
    return {
      permission: target.request ? 'write' : 'read', description: '', note: '', expires: '', starts: '', maxUses: '', password: '', removePassword: false,
      requireRegistration: false, pathTemplate: '', separateByFolder: true, allowFolders: true,
    };
  }
  const b = target.bundle;
  return {
    permission: b.permissions, description: b.description ?? '', note: b.note ?? '', expires: localInputOf(b.expires_at), starts: localInputOf(b.start_access_on_date),
    maxUses: b.max_uses ?? '', password: '', removePassword: false, requireRegistration: b.require_registration, pathTemplate: b.path_template ?? '',
    separateByFolder: !b.dont_separate_submissions_by_folder, allowFolders: !b.dont_allow_folders_in_uploads,
  };
}

/** The form as the API's fields, or the field that is not right and why. */
function settingsOf(form: Form, uploads: boolean): BundleSettings | { problem: [string, string] } {
  const expires = isoOfLocalInput(form.expires);
  if (expires === undefined) return { problem: ['expires_at', 'Not a date and time.'] };
  const starts = isoOfLocalInput(form.starts);
  if (starts === undefined) return { problem: ['start_access_on_date', 'Not a date and time.'] };
  const text = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    permissions: form.permission,
    description: text(form.description),
    note: text(form.note),
    expires_at: expires,
    start_access_on_date: starts,
    max_uses: form.maxUses === '' ? null : form.maxUses,
    require_registration: form.requireRegistration,
    ...(uploads && takesUploads(form.permission) ? {
      path_template: text(form.pathTemplate),
      dont_separate_submissions_by_folder: !form.separateByFolder,
      dont_allow_folders_in_uploads: !form.allowFolders,
    } : {}),
  };
}

/** A refusal's messages by field (`paths[0]` shown at `paths`). */
function fieldErrorsOf(error: ApiError): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const shown = field.replace(/\[.*$/, '');
    byField[shown] = [byField[shown], ...messages].filter((m) => m !== undefined && m !== '').join(' ');
  }
  return byField;
}

/**
 * Makes a share link of a file or folder, or changes one, each setting in plain words. A new link
 * is then shown to copy, with its QR code, and whom it is for may be recorded. Only what changed
 * is sent on a change; the password is write-only. A refusal is shown at the fields it names.
 */
export function ShareDialog({ target, onClose, onSaved }: { target: ShareTarget; onClose(): void; onSaved?(bundle: Bundle): void }) {
  const initial = useMemo(() => formOf(target), [target]);
  const [form, setForm] = useState<Form>(initial);
  const [error, setError] = useState<string | undefined>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<Bundle | undefined>();
  const set = (change: Partial<Form>) => setForm((f) => ({ ...f, ...change }));
  const fieldError = (field: string) => fieldErrors[field];

  // A link of a folder may take uploads; a link of files only may not.
  const folder = target.kind === 'new' ? target.folder : (target.bundle.bundlepaths ?? []).some((p) => p.recursive);
  const name = target.kind === 'new' ? target.name : (target.bundle.paths ?? []).join(', ') || target.bundle.code;
  const offered = folder ? FOLDER_PERMISSIONS : FILE_PERMISSIONS;
  const hadPassword = target.kind === 'edit' && target.bundle.password_protected;
  const request = target.kind === 'new' && target.request;
  const title = target.kind === 'edit' ? 'Edit share link' : request ? `Request files into ${target.name}` : `Share ${target.name}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setFieldErrors({});
    const wanted = settingsOf(form, folder);
    if ('problem' in wanted) {
      setFieldErrors({ [wanted.problem[0]]: wanted.problem[1] });
      setError('Some fields need another look.');
      return;
    }
    const password = form.removePassword ? { password: null } : form.password === '' ? {} : { password: form.password };
    setBusy(true);
    try {
      if (target.kind === 'new') {
        const bundle = await createBundle({ paths: [target.path], ...wanted, ...password });
        onSaved?.(bundle);
        setCreated(bundle);
      } else {
        const before = settingsOf(initial, folder);
        const changes: BundleSettings = { ...password };
        for (const key of Object.keys(wanted) as (keyof BundleSettings)[]) {
          if ('problem' in before || JSON.stringify(wanted[key]) !== JSON.stringify(before[key])) Object.assign(changes, { [key]: wanted[key] });
        }
        const saved = Object.keys(changes).length === 0 ? target.bundle : await updateBundle(target.bundle.id, changes);
        onSaved?.(saved);
        onClose();
      }
    } catch (caught) {
      if (caught instanceof ApiError) setFieldErrors(fieldErrorsOf(caught));
      setError(caught instanceof Error ? caught.message : 'The link was not saved.');
    } finally {
      setBusy(false);
    }
  }

  if (created !== undefined) {
    return (
      <Modal opened onClose={onClose} title={`Link to ${name}`} size="lg">
        <LinkToHandOver bundle={created} onDone={onClose} />
      </Modal>
    );
  }

  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          {target.kind === 'edit' && <Text size="sm" style={{ wordBreak: 'break-all' }}>Shares <Code>{name}</Code></Text>}
          {request && (
            <Text size="sm">A link anyone who has it can upload files with, into this folder. They see nothing that is already there.</Text>
          )}
          {error !== undefined && <Alert color="red" role="alert" style={{ wordBreak: 'break-word' }}>{error}</Alert>}
          {fieldError('paths') !== undefined && <Text size="sm" c="red.9" role="alert">{fieldError('paths')}</Text>}
          {!request && (
            <Radio.Group label="Visitors may" value={form.permission} onChange={(value) => set({ permission: value as BundlePermission })} error={fieldError('permissions')}>
              <Stack gap="xs" mt={4}>
                {offered.map((p) => <Radio key={p} value={p} label={PERMISSION_WORDS[p].label} description={PERMISSION_WORDS[p].description} />)}
              </Stack>
            </Radio.Group>
          )}
          {folder && takesUploads(form.permission) && (
            <Stack gap="xs" role="group" aria-label="Uploads">
              <Checkbox label="A folder for each visitor's uploads" checked={form.separateByFolder} onChange={(e) => set({ separateByFolder: e.currentTarget.checked })}
                description="Each visitor's files go into a folder of their own inside this one. Without it, all uploads land straight in this folder."
                error={fieldError('dont_separate_submissions_by_folder')} />
              {form.separateByFolder && (
                <TextInput label="Name of each visitor's folder" value={form.pathTemplate} onChange={(e) => set({ pathTemplate: e.currentTarget.value })}
                  placeholder="{{name}}_{{ip}}" error={fieldError('path_template')}
                  description="Empty: Atrium's own naming. Words in double braces are filled in with the visitor's details: {{name}}_{{ip}} is their name and address." />
              )}
              <Checkbox label="Visitors may upload folders" checked={form.allowFolders} onChange={(e) => set({ allowFolders: e.currentTarget.checked })}
                description="Without it, they upload files only." error={fieldError('dont_allow_folders_in_uploads')} />
            </Stack>
          )}
          <Textarea label="Description" description="What visitors read on the link's page" autosize minRows={2} value={form.description}
            onChange={(e) => set({ description: e.currentTarget.value })} error={fieldError('description')} data-autofocus />
          <Textarea label="Note (internal)" description="For you and the administrators; never shown to visitors" autosize minRows={1} value={form.note}
            onChange={(e) => set({ note: e.currentTarget.value })} error={fieldError('note')} />
          <Group grow align="flex-start" style={{ flexWrap: 'wrap' }}>
            <TextInput type="datetime-local" label="Expires" description="Your local time. Empty: never, unless the site sets a limit" value={form.expires}
              onChange={(e) => set({ expires: e.currentTarget.value })} error={fieldError('expires_at')} style={{ minWidth: 200 }} />
            <TextInput type="datetime-local" label="Starts working" description="Empty: at once" value={form.starts}
              onChange={(e) => set({ starts: e.currentTarget.value })} error={fieldError('start_access_on_date')} style={{ minWidth: 200 }} />
          </Group>
          <NumberInput label="Most uses" description="How many times it may be used. Empty: no limit" min={1} allowDecimal={false} allowNegative={false} value={form.maxUses}
            onChange={(value) => set({ maxUses: typeof value === 'number' ? value : value === '' ? '' : Number(value) })} error={fieldError('max_uses')} />
          <PasswordInput label="Password" autoComplete="new-password" value={form.password} disabled={form.removePassword}
            onChange={(e) => set({ password: e.currentTarget.value })} error={fieldError('password')}
            description={hadPassword ? 'It has one. Type a new one to change it; empty keeps it.' : 'Visitors must type it. Empty: none. Give it to them yourself.'} />
          {hadPassword && (
            <Checkbox label="Remove the password" checked={form.removePassword} onChange={(e) => set({ removePassword: e.currentTarget.checked, password: '' })} />
          )}
          <Checkbox label="Visitors register first" checked={form.requireRegistration} onChange={(e) => set({ requireRegistration: e.currentTarget.checked })}
            description="They give their name, email and company before anything else; you see them on the Shared links page." error={fieldError('require_registration')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>{target.kind === 'edit' ? 'Save' : request ? 'Create request link' : 'Create link'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
