import { Button, CopyButton, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Bundle } from '../api/bundles';
import { formatTime } from '../files/format';

/** When a link stops working, in words. */
export function expiryInWords(bundle: Bundle): string {
  if (bundle.expires_at === null) return 'Never';
  const past = new Date(bundle.expires_at).getTime() <= Date.now();
  return `${formatTime(bundle.expires_at)}${past ? ' (expired)' : ''}`;
}

export function usesInWords(bundle: Bundle): string {
  return bundle.max_uses === null ? 'No limit' : `At most ${bundle.max_uses} ${bundle.max_uses === 1 ? 'use' : 'uses'}`;
}

/** What a link shares: its paths, or, until they are read (a listing leaves them out), its code. */
export function sharedInWords(bundle: Bundle, paths: string[] | undefined): string {
  if (paths === undefined) return '…';
  return paths.length === 0 ? 'Nothing that still exists' : paths.join(', ');
}

export function CopyLinkButton({ bundle, label = 'Copy link' }: { bundle: Bundle; label?: string }) {
  return (
    <CopyButton value={bundle.url}>
      {({ copied, copy }) => <Button variant="default" size="xs" onClick={copy}>{copied ? 'Copied' : label}</Button>}
    </CopyButton>
  );
}

/** A label and its value in a list of facts. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" component="dt">{label}</Text>
      <Text size="sm" component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>{children}</Text>
    </div>
  );
}
