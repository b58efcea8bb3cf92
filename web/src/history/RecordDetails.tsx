import { Code, Text } from '@mantine/core';
import type { HistoryRecord } from '../api/history';

/**
 * Everything a record holds beyond its row, as keys and values. What it is about (`targets`:
 * the user, group, key or grant, before and after) is shown as text, nested values as indented
 * JSON: never as markup, whatever the names in it hold. `unshown` are what the row could not show
 * (its columns left out on a phone), first.
 */
export function RecordDetails({ record, unshown = [] }: { record: HistoryRecord; unshown?: [string, string | null][] }) {
  const fields: [string, unknown][] = [
    ...unshown,
    ['Record', record.id],
    ['Exact time', record.when],
    ['User id', record.user_id],
    ['Failure', record.failure_type],
    ['Source', record.source],
    ['Destination', record.destination],
  ];
  const shown = fields.filter(([, value]) => value !== null && value !== 'none');
  const targets = record.targets === null ? [] : Object.entries(record.targets);
  return (
    <dl style={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: '4px 16px', margin: 0 }}>
      {[...shown, ...targets].map(([name, value], index) => (
        <Pair key={`${index}-${name}`} name={name} value={value} />
      ))}
      {targets.length === 0 && <Pair name="About" value="nothing more was recorded" />}
    </dl>
  );
}

function Pair({ name, value }: { name: string; value: unknown }) {
  return (
    <>
      <Text component="dt" size="sm" fw={700} style={{ wordBreak: 'break-word' }}>{name}</Text>
      <dd style={{ margin: 0, minWidth: 0 }}>
        {value !== null && typeof value === 'object' ? (
          <Code block>{JSON.stringify(value, null, 2)}</Code>
        ) : (
          <Text size="sm" style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>{value === null ? 'none' : String(value)}</Text>
        )}
      </dd>
    </>
  );
}
