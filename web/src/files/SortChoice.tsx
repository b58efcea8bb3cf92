import { NativeSelect } from '@mantine/core';
import type { FolderSort, SortField } from '../api/files';

/** Every order a folder can be listed in, in words. */
const ORDERS: { field: SortField; direction: FolderSort['direction']; label: string }[] = [
  { field: 'path', direction: 'asc', label: 'Name, A to Z' },
  { field: 'path', direction: 'desc', label: 'Name, Z to A' },
  { field: 'size', direction: 'asc', label: 'Smallest first' },
  { field: 'size', direction: 'desc', label: 'Largest first' },
  { field: 'modified_at_datetime', direction: 'asc', label: 'Oldest first' },
  { field: 'modified_at_datetime', direction: 'desc', label: 'Newest first' },
];

/**
 * The folder's order as one choice, for a phone: its table has no room for the Modified column,
 * whose header sorts on a wider screen. The system's own picker, which phones show well.
 */
export function SortChoice({ sort, onChoose }: { sort: FolderSort; onChoose(order: FolderSort): void }) {
  const valueOf = (order: FolderSort) => `${order.field}:${order.direction}`;
  return (
    <NativeSelect label="Order" w="fit-content" value={valueOf(sort)}
      data={ORDERS.map((order) => ({ value: valueOf(order), label: order.label }))}
      onChange={(event) => {
        const chosen = ORDERS.find((order) => valueOf(order) === event.currentTarget.value);
        if (chosen !== undefined) onChoose({ field: chosen.field, direction: chosen.direction });
      }} />
  );
}
