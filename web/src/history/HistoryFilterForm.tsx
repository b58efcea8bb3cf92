import { Badge, Button, CloseButton, Group, NativeSelect, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ACTION_GROUPS, INTERFACE_LABELS } from './labels';
import { hasFilters, NO_FILTERS, type HistoryFilters } from './useHistoryFilters';

const ACTION_DATA = [{ value: '', label: 'Any action' }, ...ACTION_GROUPS];
const INTERFACE_DATA = [{ value: '', label: 'Any' }, ...Object.entries(INTERFACE_LABELS).map(([value, label]) => ({ value, label }))];

/**
 * The filters of the History screen. A choice in a list applies at once; typed text and dates
 * apply with Enter or *Apply*, so a half-typed name or date never asks the server. Mount it again
 * (by key) when the address changes, so Back shows the filters of the view it returns to.
 */
export function HistoryFilterForm({ filters, onApply }: { filters: HistoryFilters; onApply(next: HistoryFilters): void }) {
  const [draft, setDraft] = useState(filters);
  const set = (field: keyof HistoryFilters, value: string) => setDraft((previous) => ({ ...previous, [field]: value }));
  const choose = (field: 'action' | 'interface', value: string) => {
    const next = { ...draft, [field]: value };
    setDraft(next);
    onApply(next);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }

  return (
    <form onSubmit={submit} role="search" aria-label="Filter the history">
      <Group align="flex-end" gap="sm">
        <NativeSelect label="Action" data={ACTION_DATA} value={draft.action} onChange={(e) => choose('action', e.currentTarget.value)} w={230} />
        <TextInput label="User" placeholder="user name or #id" value={draft.user} onChange={(e) => set('user', e.currentTarget.value)} w={170} />
        <TextInput label="Folder" placeholder="e.g. Reports/2026" title="This folder and everything in it" value={draft.folder} onChange={(e) => set('folder', e.currentTarget.value)} w={190} />
        <TextInput label="From" type="date" value={draft.from} onChange={(e) => set('from', e.currentTarget.value)} w={150} />
        <TextInput label="To" type="date" value={draft.to} onChange={(e) => set('to', e.currentTarget.value)} w={150} />
        <NativeSelect label="Interface" data={INTERFACE_DATA} value={draft.interface} onChange={(e) => choose('interface', e.currentTarget.value)} w={140} />
        <Button type="submit" variant="default">Apply</Button>
        {hasFilters(filters) && <Button variant="subtle" onClick={() => onApply({ ...NO_FILTERS, oldestFirst: filters.oldestFirst })}>Clear filters</Button>}
      </Group>
      {filters.file !== '' && (
        <Group gap={4} mt="xs">
          <Badge variant="light" tt="none" size="lg" style={{ maxWidth: '100%' }}
            rightSection={<CloseButton size="xs" aria-label="Show every path" onClick={() => onApply({ ...draft, file: '' })} />}>
            File: {filters.file}
          </Badge>
        </Group>
      )}
    </form>
  );
}
