import { Button, Checkbox, Code, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { saveBlob } from '../files/save-as';

/**
 * The recovery codes, shown once: each signs in once in place of a code from the app, for the day
 * the phone is lost. Copy and download keep them outside Atrium; the person says they did before
 * going on. The codes live only in this component's state.
 */
export function RecoveryCodes({ codes, continueLabel, onContinue }: { codes: readonly string[]; continueLabel: string; onContinue(): void }) {
  const [saved, setSaved] = useState(false);
  const text = `${codes.join('\n')}\n`;

  function download() {
    saveBlob(new Blob([`Atrium recovery codes for ${window.location.host}. Each works once.\n\n${text}`], { type: 'text/plain' }), 'atrium-recovery-codes.txt');
  }

  return (
    <Stack>
      <Text size="sm">
        If you lose your phone or passkey, each of these codes signs you in once in its place. Keep them somewhere safe, such as
        a password manager or a printed page. <strong>They are shown only now.</strong>
      </Text>
      <SimpleGrid cols={2} spacing="xs" component="ul" aria-label="Recovery codes" data-testid="recovery-codes" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {codes.map((code) => <li key={code}><Code fz="md">{code}</Code></li>)}
      </SimpleGrid>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy codes'}</Button>}
        </CopyButton>
        <Button variant="default" onClick={download}>Download codes</Button>
      </Group>
      <Checkbox label="I have saved these codes" checked={saved} onChange={(e) => setSaved(e.currentTarget.checked)} />
      <Button onClick={onContinue} disabled={!saved} w="fit-content">{continueLabel}</Button>
    </Stack>
  );
}
