import { Alert, Box, Button, Code, CopyButton, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { TotpEnrolment } from '../api/two-factor';
import { useNarrow } from '../layout/useNarrow';
import { QrCode } from '../shares/QrCode';
import { inGroupsOfFour, isWrongCode, messageOf, WRONG_APP_CODE } from './words';

/**
 * Setting up an authenticator app: the QR code of the `otpauth://` address to scan, the key in
 * groups of four for an app that cannot scan, and the first code to prove the app has it. The
 * secret lives only in this component's state. `confirm` sends the code; a wrong code is said
 * here, anything else goes to `onFailure` first, which returns true when it took care of it.
 */
export function TotpSetup({ enrolment, confirm, onFailure, actions }: {
  enrolment: TotpEnrolment;
  confirm(otp: string): Promise<void>;
  onFailure?(caught: unknown): boolean;
  /** Buttons beside Confirm (Cancel). */
  actions?: ReactNode;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const plainSecret = enrolment.secret.replace(/\s+/g, '');
  // On a phone the QR code is on the phone itself: its authenticator app opens the address instead.
  const narrow = useNarrow();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await confirm(code.replace(/\s+/g, ''));
    } catch (caught) {
      if (onFailure?.(caught) === true) return;
      setError(isWrongCode(caught) ? WRONG_APP_CODE : messageOf(caught, 'The app was not set up. Try again.'));
      setCode('');
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label="Set up an authenticator app">
      <Stack>
        <List type="ordered" spacing="md" styles={{ itemWrapper: { display: 'block' } }}>
          <List.Item>
            <Text size="sm" mb="xs">Open an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator, 1Password or Aegis), add an account, and scan this QR code.</Text>
            <Box w={176} maw="100%"><QrCode text={enrolment.otpauth_uri} label="QR code to scan with your authenticator app" /></Box>
            {narrow && (
              <Button component="a" href={enrolment.otpauth_uri} variant="default" size="xs" mt="xs">Open in an authenticator app on this phone</Button>
            )}
          </List.Item>
          <List.Item>
            <Text size="sm" mb="xs">Cannot scan it? Type this key into the app instead:</Text>
            <Group gap="xs" wrap="wrap">
              <Code fz="md" data-testid="totp-secret" style={{ wordSpacing: '0.3em', overflowWrap: 'anywhere' }}>{inGroupsOfFour(plainSecret)}</Code>
              <CopyButton value={plainSecret}>
                {({ copied, copy }) => <Button size="xs" variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy key'}</Button>}
              </CopyButton>
            </Group>
          </List.Item>
          <List.Item>
            <TextInput ref={input} label="Enter the 6-digit code the app shows" name="otp" autoComplete="one-time-code" inputMode="numeric"
              pattern="[0-9 ]*" maxLength={7} required value={code} onChange={(e) => setCode(e.currentTarget.value)} styles={{ wrapper: { maxWidth: 220 } }} />
          </List.Item>
        </List>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
        <Group justify="flex-end">
          {actions}
          <Button type="submit" loading={busy} disabled={code.trim() === ''}>Turn on</Button>
        </Group>
      </Stack>
    </form>
  );
}
