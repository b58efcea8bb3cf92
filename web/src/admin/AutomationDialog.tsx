import {
  Alert, Autocomplete, Box, Button, Checkbox, Code, Group, List, Modal, Radio, Select, Stack, Text, Textarea, TextInput,
} from '@mantine/core';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import {
  createAutomation, updateAutomation, type Automation, type AutomationSettings, type AutomationTrigger, type AutomationType, type ImportUrl,
} from '../api/automations';
import { ApiError } from '../api/client';
import { DESTINATION_TOKENS, GLOB_RULES, INTERVALS, TRIGGER_ACTIONS, TRIGGERS, TYPES, WEEKDAYS } from './automation-words';

/** The form as typed: lists of numbers and times are text until they are sent. */
interface Form {
  name: string;
  description: string;
  automation: AutomationType;
  trigger: AutomationTrigger;
  interval: string;
  recurringDays: string;
  daysOfWeek: string[];
  times: string;
  timeZone: string;
  path: string;
  source: string;
  excludePattern: string;
  destinations: string[];
  triggerActions: string[];
  disabled: boolean;
  overwriteFiles: boolean;
  flatten: boolean;
  importUrls: ImportUrl[];
}

const EMPTY: Form = {
  name: '', description: '', automation: 'copy_file', trigger: 'manual', interval: 'day', recurringDays: '', daysOfWeek: [], times: '',
  timeZone: '', path: '', source: '', excludePattern: '', destinations: [''], triggerActions: [], disabled: false, overwriteFiles: false,
  flatten: false, importUrls: [],
};

function formOf(automation: Automation): Form {
  return {
    name: automation.name,
    description: automation.description,
    automation: automation.automation,
    trigger: automation.trigger,
    interval: automation.interval ?? 'day',
    recurringDays: automation.recurring_days.join(', '),
    daysOfWeek: automation.schedule_days_of_week.map(String),
    times: automation.schedule_times_of_day.join(', '),
    timeZone: automation.schedule_time_zone ?? '',
    path: automation.path ?? '',
    source: automation.source ?? '',
    excludePattern: automation.exclude_pattern ?? '',
    destinations: automation.destinations.length === 0 ? [''] : automation.destinations,
    triggerActions: automation.trigger_actions,
    disabled: automation.disabled,
    overwriteFiles: automation.overwrite_files,
    flatten: automation.flatten_destination_structure,
    importUrls: automation.import_urls.map(({ name, url, method }) => ({ name: name ?? '', url, method: method ?? 'get' })),
  };
}

const scheduled = (trigger: AutomationTrigger) => trigger === 'daily' || trigger === 'custom_schedule';
const takesFiles = (type: AutomationType) => type === 'copy_file' || type === 'move_file' || type === 'delete_file';
const hasDestinations = (type: AutomationType) => type !== 'delete_file';
const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
const items = (text: string) => text.split(/[\s,]+/).filter((item) => item !== '');

/** What the form sends: the fields of the chosen type and trigger, the others emptied. */
function settingsOf(form: Form): AutomationSettings | { problem: [string, string] } {
  const recurring = form.trigger === 'daily' && form.interval !== 'day' ? items(form.recurringDays) : [];
  if (recurring.some((day) => !/^\d+$/.test(day))) return { problem: ['recurring_days', 'Write day numbers separated by commas, such as 1, 15.'] };
  return {
    name: form.name.trim(),
    description: form.description,
    automation: form.automation,
    trigger: form.trigger,
    interval: form.trigger === 'daily' ? form.interval : null,
    recurring_days: recurring.map(Number),
    schedule_days_of_week: form.trigger === 'custom_schedule' ? form.daysOfWeek.map(Number).sort((a, b) => a - b) : [],
    schedule_times_of_day: scheduled(form.trigger) ? items(form.times) : [],
    schedule_time_zone: scheduled(form.trigger) ? orNull(form.timeZone) : null,
    path: takesFiles(form.automation) || form.trigger === 'action' ? orNull(form.path) : null,
    source: takesFiles(form.automation) ? orNull(form.source) : null,
    exclude_pattern: takesFiles(form.automation) ? orNull(form.excludePattern) : null,
    destinations: hasDestinations(form.automation) ? form.destinations.map((d) => d.trim()).filter((d) => d !== '') : [],
    trigger_actions: form.trigger === 'action' ? form.triggerActions : [],
    disabled: form.disabled,
    overwrite_files: form.overwriteFiles,
    flatten_destination_structure: form.flatten,
    import_urls: form.automation === 'import_file'
      ? form.importUrls.filter((u) => u.url.trim() !== '').map((u) => ({ ...(u.name?.trim() ? { name: u.name.trim() } : {}), url: u.url.trim(), method: u.method ?? 'get' }))
      : [],
  };
}

/** The field a refusal names, as the form shows it: `destinations[0]` and `recurring_day` are shown at their lists. */
function fieldOf(name: string): string {
  const base = name.replace(/\[.*$/, '');
  return base === 'recurring_day' ? 'recurring_days' : base;
}

/** A refusal's messages by field, as the form shows them. */
function fieldErrorsOf(error: ApiError): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const shown = fieldOf(field);
    byField[shown] = [byField[shown], ...messages].filter((m) => m !== undefined && m !== '').join(' ');
  }
  return byField;
}

/** Time zone names the browser knows (IANA); the server takes these and Files.com's own names. */
function zoneNames(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

/**
 * Creates an automation (`automation` undefined) or changes one, each field explained in plain
 * words. Only what changed is sent on a change. A refusal is shown at the fields it names.
 */
export function AutomationDialog({ automation, onClose, onSaved }: { automation?: Automation; onClose(): void; onSaved(saved: Automation): void }) {
  const initial = useMemo(() => (automation === undefined ? EMPTY : formOf(automation)), [automation]);
  const [form, setForm] = useState<Form>(initial);
  const [error, setError] = useState<string | undefined>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const zones = useMemo(zoneNames, []);
  const set = (change: Partial<Form>) => setForm((f) => ({ ...f, ...change }));
  const fieldError = (field: string) => fieldErrors[field];

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setFieldErrors({});
    const wanted = settingsOf(form);
    if ('problem' in wanted) {
      setFieldErrors({ [wanted.problem[0]]: wanted.problem[1] });
      setError('Some fields need another look.');
      return;
    }
    setBusy(true);
    try {
      let saved: Automation;
      if (automation === undefined) {
        saved = await createAutomation(wanted);
      } else {
        const before = settingsOf(initial);
        const changes: Partial<AutomationSettings> = {};
        for (const key of Object.keys(wanted) as (keyof AutomationSettings)[]) {
          if ('problem' in before || JSON.stringify(wanted[key]) !== JSON.stringify(before[key])) Object.assign(changes, { [key]: wanted[key] });
        }
        saved = Object.keys(changes).length === 0 ? automation : await updateAutomation(automation.id, changes);
      }
      onSaved(saved);
      onClose();
    } catch (caught) {
      if (caught instanceof ApiError) setFieldErrors(fieldErrorsOf(caught));
      setError(caught instanceof Error ? caught.message : 'The automation was not saved.');
    } finally {
      setBusy(false);
    }
  }

  const interval = INTERVALS.find((i) => i.value === form.interval);
  return (
    <Modal opened onClose={onClose} title={automation === undefined ? 'New automation' : `Edit ${automation.name || 'automation'}`} size="xl">
      <form onSubmit={submit} noValidate>
        <Stack>
          {error !== undefined && <Alert color="red" role="alert" style={{ wordBreak: 'break-word' }}>{error}</Alert>}
          <TextInput label="Name" value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} error={fieldError('name')} data-autofocus
            description="How the automation is listed" />
          <Textarea label="Description" autosize minRows={1} maxRows={4} value={form.description} onChange={(e) => set({ description: e.currentTarget.value })}
            error={fieldError('description')} description="A note for administrators: why it exists, who asked for it" />

          <Radio.Group label="What it does" value={form.automation} onChange={(value) => set({ automation: value as AutomationType })} error={fieldError('automation')}>
            <Stack gap="xs" mt="xs">
              {TYPES.map((t) => <Radio key={t.value} value={t.value} label={t.label} description={t.description} />)}
            </Stack>
          </Radio.Group>

          <Radio.Group label="When it runs" value={form.trigger} onChange={(value) => set({ trigger: value as AutomationTrigger })} error={fieldError('trigger')}>
            <Stack gap="xs" mt="xs">
              {TRIGGERS.map((t) => <Radio key={t.value} value={t.value} label={t.label} description={t.description} />)}
            </Stack>
          </Radio.Group>

          {form.trigger === 'action' && (
            <Checkbox.Group label="Which file actions start it" value={form.triggerActions} onChange={(triggerActions) => set({ triggerActions })}
              description="It runs for each file in its folder (below) that one of these happens to." error={fieldError('trigger_actions')} data-field="trigger_actions">
              <Group gap="md" mt="xs">
                {TRIGGER_ACTIONS.map((a) => <Checkbox key={a.value} value={a.value} label={a.label} />)}
              </Group>
            </Checkbox.Group>
          )}
          {form.trigger === 'daily' && (
            <>
              <Select label="How often" allowDeselect={false} value={form.interval} onChange={(value) => set({ interval: value ?? 'day' })}
                data={INTERVALS.map((i) => ({ value: i.value, label: i.label }))} error={fieldError('interval')} />
              {form.interval !== 'day' && (
                <TextInput label="On which days" value={form.recurringDays} onChange={(e) => set({ recurringDays: e.currentTarget.value })}
                  description={interval?.days} error={fieldError('recurring_days')} />
              )}
            </>
          )}
          {form.trigger === 'custom_schedule' && (
            <Checkbox.Group label="Days of the week" value={form.daysOfWeek} onChange={(daysOfWeek) => set({ daysOfWeek })} error={fieldError('schedule_days_of_week')}
              description="At least one day.">
              <Group gap="md" mt="xs">
                {WEEKDAYS.map((day, index) => <Checkbox key={day} value={String(index)} label={day} />)}
              </Group>
            </Checkbox.Group>
          )}
          {scheduled(form.trigger) && (
            <>
              <TextInput label="Times of day" value={form.times} onChange={(e) => set({ times: e.currentTarget.value })} placeholder="09:00, 17:30"
                description="24-hour times separated by commas. Empty: midnight." error={fieldError('schedule_times_of_day')} />
              <Autocomplete label="Time zone" value={form.timeZone} onChange={(timeZone) => set({ timeZone })} data={zones} limit={20}
                description="The clock the times are read on, such as Europe/London or America/New_York (Files.com's names such as London work too). Empty: UTC. A 09:00 run stays at 09:00 when the clocks change."
                error={fieldError('schedule_time_zone')} />
            </>
          )}
          {form.trigger === 'webhook' && (
            <Text size="sm" c="dimmed">After saving, its webhook URL is shown once: a program that sends a request to it starts a run. Keep it like a password.</Text>
          )}
          {form.trigger === 'manual' && <Text size="sm" c="dimmed">It runs only when someone presses Run now on its page, or asks the API to run it.</Text>}

          {(takesFiles(form.automation) || form.trigger === 'action') && (
            <Stack gap="xs">
              <TextInput label="Folder" value={form.path} onChange={(e) => set({ path: e.currentTarget.value })} placeholder="inbox/*" error={fieldError('path')}
                description="The folders it works in, from the top of the Workspace; may be a pattern (see the pattern rules). Empty: the top folder." />
              {takesFiles(form.automation) && (
                <>
                  <TextInput label="Files" value={form.source} onChange={(e) => set({ source: e.currentTarget.value })} placeholder="*.csv" error={fieldError('source')}
                    description="A pattern of the files it takes in those folders. Empty: every file directly in them." />
                  <TextInput label="Leave out" value={form.excludePattern} onChange={(e) => set({ excludePattern: e.currentTarget.value })} placeholder="*.tmp"
                    error={fieldError('exclude_pattern')}
                    description="A pattern of files it leaves alone: without a / it is matched against the name, with one against the whole path." />
                </>
              )}
              <Help summary="Pattern rules">
                <Text size="sm">Patterns match whole paths, ignoring upper and lower case.</Text>
                <List size="sm" spacing={2}>
                  {GLOB_RULES.map(([glob, meaning]) => <List.Item key={glob}><Code>{glob}</Code> {meaning}</List.Item>)}
                </List>
              </Help>
            </Stack>
          )}

          {hasDestinations(form.automation) && (
            <Stack gap="xs" role="group" aria-label="Destinations">
              <Text size="sm" fw={500}>{form.automation === 'create_folder' ? 'Folders to create' : form.automation === 'import_file' ? 'Destination folder' : 'Destinations'}</Text>
              <Text size="sm" c="dimmed">
                A path from the top of the Workspace. Ending in / it is a folder where files keep their names; otherwise it is the new file name.
                Starting with ./ or ../ it is next to the source file. Tokens (below) are filled in for each file and run.
              </Text>
              {form.destinations.map((destination, index) => (
                <Group key={index} gap="xs" wrap="nowrap" align="flex-start">
                  <TextInput style={{ flex: 1, minWidth: 0 }} aria-label={`Destination ${index + 1}`} value={destination} placeholder="archive/%Y/"
                    onChange={(e) => { const value = e.currentTarget.value; set({ destinations: form.destinations.map((d, i) => (i === index ? value : d)) }); }}
                    error={index === 0 ? fieldError('destinations') : undefined} />
                  {form.destinations.length > 1 && (
                    <Button variant="subtle" color="red" aria-label={`Remove destination ${index + 1}`}
                      onClick={() => set({ destinations: form.destinations.filter((_, i) => i !== index) })}>Remove</Button>
                  )}
                </Group>
              ))}
              <Group>
                <Button variant="default" size="xs" onClick={() => set({ destinations: [...form.destinations, ''] })}>Add destination</Button>
              </Group>
              <Help summary="Tokens">
                <List size="sm" spacing={2}>
                  {DESTINATION_TOKENS.map(([token, meaning, example]) => (
                    <List.Item key={token}><Code>{token}</Code> {meaning}, for example <Code>{example}</Code></List.Item>
                  ))}
                </List>
                <Text size="sm">For example <Code>archive/%Y/%m/</Code> puts a file copied in March 2026 into archive/2026/03/.</Text>
              </Help>
              {form.automation !== 'create_folder' && (
                <>
                  <Checkbox label="Overwrite files that are already there" checked={form.overwriteFiles} onChange={(e) => set({ overwriteFiles: e.currentTarget.checked })}
                    description="Without it, a file whose name is taken at the destination is left out of the run and reported." />
                  {form.automation !== 'import_file' && (
                    <Checkbox label="Put every file straight into the destination folder" checked={form.flatten} onChange={(e) => set({ flatten: e.currentTarget.checked })}
                      description="Without it, the subfolders below the folder it works in are kept: inbox/2026/a.pdf copied to archive/ lands in archive/2026/a.pdf." />
                  )}
                </>
              )}
            </Stack>
          )}

          {form.automation === 'import_file' && (
            <Stack gap="xs" role="group" aria-label="URLs to import">
              <Text size="sm" fw={500}>URLs to import</Text>
              <Text size="sm" c="dimmed">Each is downloaded (http or https) into the destination folder, under the file name given or the URL&apos;s last part.</Text>
              {fieldError('import_urls') !== undefined && <Text size="sm" c="red.9" role="alert">{fieldError('import_urls')}</Text>}
              {form.importUrls.map((entry, index) => {
                const change = (patch: Partial<ImportUrl>) => set({ importUrls: form.importUrls.map((u, i) => (i === index ? { ...u, ...patch } : u)) });
                return (
                  <Group key={index} gap="xs" align="flex-end">
                    <TextInput style={{ flex: 2, minWidth: 180 }} label={`URL ${index + 1}`} value={entry.url} onChange={(e) => change({ url: e.currentTarget.value })} />
                    <TextInput style={{ flex: 1, minWidth: 120 }} label="File name" value={entry.name ?? ''} onChange={(e) => change({ name: e.currentTarget.value })} />
                    <Select w={100} label="Method" allowDeselect={false} value={entry.method ?? 'get'} data={[{ value: 'get', label: 'GET' }, { value: 'post', label: 'POST' }]}
                      onChange={(value) => change({ method: value === 'post' ? 'post' : 'get' })} />
                    <Button variant="subtle" color="red" aria-label={`Remove URL ${index + 1}`} onClick={() => set({ importUrls: form.importUrls.filter((_, i) => i !== index) })}>Remove</Button>
                  </Group>
                );
              })}
              <Group>
                <Button variant="default" size="xs" onClick={() => set({ importUrls: [...form.importUrls, { name: '', url: '', method: 'get' }] })}>Add URL</Button>
              </Group>
            </Stack>
          )}

          <Checkbox label="Disabled" checked={form.disabled} onChange={(e) => set({ disabled: e.currentTarget.checked })}
            description="A disabled automation does not run on its trigger; Run now still runs it." />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>{automation === undefined ? 'Create automation' : 'Save'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Help that stays folded until asked for. */
function Help({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <Box component="details" style={{ fontSize: 'var(--mantine-font-size-sm)' }}>
      <Box component="summary" style={{ cursor: 'pointer' }}>{summary}</Box>
      <Stack gap={4} mt={4} style={{ overflowWrap: 'anywhere' }}>{children}</Stack>
    </Box>
  );
}
