import { Button, Code, CopyButton, Divider, Group, Stack, Text } from '@mantine/core';
import type { Bundle } from '../api/bundles';
import { QrCode } from './QrCode';
import { SendTo } from './SendTo';
import { permissionInWords } from './share-words';

/** A link just made: its URL to copy, its QR code, and whom it is for. */
export function LinkToHandOver({ bundle, onDone }: { bundle: Bundle; onDone(): void }) {
  return (
    <Stack>
      <Text size="sm">
        The link is ready ({permissionInWords(bundle.permissions).toLowerCase()}{bundle.password_protected ? ', with a password' : ''}).
        Whoever has it can use it: hand it only to the people it is for.
      </Text>
      <Code block data-testid="share-url" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{bundle.url}</Code>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <QrCode text={bundle.url} label="QR code of the link" />
        <CopyButton value={bundle.url}>
          {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy link'}</Button>}
        </CopyButton>
      </Group>
      <Divider />
      <SendTo bundleId={bundle.id} />
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
