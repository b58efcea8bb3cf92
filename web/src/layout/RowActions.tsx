import { ActionIcon, Button, Group, Menu } from '@mantine/core';

export interface RowAction {
  label: string;
  /** What a screen reader hears for the button when the label alone does not say which row (`Delete alice`). */
  ariaLabel?: string;
  onClick(): void;
  danger?: boolean;
  disabled?: boolean;
}

/**
 * The actions of a table's row: buttons beside it on a wide screen, one ⋯ menu on a phone, where
 * a row of buttons would push the table past the screen's edge. Only one of the two is displayed
 * (the other is `display: none`, so out of the accessibility tree too).
 */
export function RowActions({ row, actions }: { row: string; actions: RowAction[] }) {
  if (actions.length === 0) return null;
  return (
    <>
      <Group gap={4} wrap="nowrap" justify="flex-end" visibleFrom="sm">
        {actions.map((action) => (
          <Button key={action.label} size="xs" variant={action.danger ? 'subtle' : 'default'} color={action.danger ? 'red' : undefined}
            aria-label={action.ariaLabel} disabled={action.disabled} onClick={action.onClick}>
            {action.label}
          </Button>
        ))}
      </Group>
      <Group justify="flex-end" hiddenFrom="sm">
        <Menu position="bottom-end">
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={`Actions for ${row}`}><span aria-hidden="true">⋯</span></ActionIcon>
          </Menu.Target>
          <Menu.Dropdown aria-label={`Actions for ${row}`}>
            {actions.map((action) => (
              <Menu.Item key={action.label} color={action.danger ? 'red' : undefined} disabled={action.disabled} onClick={action.onClick}>{action.label}</Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </>
  );
}
