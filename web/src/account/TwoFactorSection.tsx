import { Alert, Badge, Button, Group, Modal, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ReauthenticationCancelled } from '../api/client';
import {
  confirmTotp, readTwoFactor, regenerateRecoveryCodes, removePasskey, removeTotp, renamePasskey, startTotp,
  type Passkey, type TotpEnrolment, type TwoFactorState,
} from '../api/two-factor';
import { ConfirmDialog, NameDialog } from '../files/dialogs';
import { formatTime } from '../files/format';
import { useNarrow } from '../layout/useNarrow';
import { browserHasPasskeys } from '../two-factor/passkey-browser';
import { PasskeySetup } from '../two-factor/PasskeySetup';
import { RecoveryCodes } from '../two-factor/RecoveryCodes';
import { TotpSetup } from '../two-factor/TotpSetup';
import { messageOf } from '../two-factor/words';

type Dialog =
  | { kind: 'app'; enrolment: TotpEnrolment }
  | { kind: 'passkey' }
  | { kind: 'remove-app' }
  | { kind: 'new-codes' }
  | { kind: 'rename'; passkey: Passkey }
  | { kind: 'remove-passkey'; passkey: Passkey };

/** Whether a method is on, as a badge: white on the darkest teal, which keeps a 4.5:1 contrast in both themes. */
function StateBadge({ on, children }: { on: boolean; children: ReactNode }) {
  return on ? <Badge variant="filled" color="teal.9">{children}</Badge> : <Badge variant="default">{children}</Badge>;
}

/** The person cancelled the password the server asked for: nothing to report. */
function cancelled(caught: unknown): boolean {
  return caught instanceof ReauthenticationCancelled;
}

/**
 * My account's two-factor authentication: the methods the person has (an authenticator app,
 * passkeys, recovery codes), setting one up, renaming and removing. Every change asks for the
 * password again (the server's reauthentication, answered by the console's dialog) and signs the
 * person out of their other sessions, which the section says before they act.
 */
export function TwoFactorSection() {
  const [state, setState] = useState<TwoFactorState | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [dialog, setDialog] = useState<Dialog | undefined>();
  // Recovery codes just made, shown once; apart from `dialog`, which a confirmation closes as it ends.
  const [codes, setCodes] = useState<{ codes: readonly string[]; title: string } | undefined>();
  const [starting, setStarting] = useState(false);
  const narrow = useNarrow();

  const load = useCallback(() => {
    readTwoFactor().then(setState, (caught: unknown) => setError(messageOf(caught, 'Your two-factor authentication could not be read.')));
  }, []);
  useEffect(load, [load]);

  /** After a change: the new state, what happened, and the recovery codes when the server made some. */
  function changed(text: string, codes?: readonly string[]) {
    setDone(text);
    load();
    setDialog(undefined);
    if (codes !== undefined && codes.length > 0) setCodes({ codes, title: 'Save your recovery codes' });
  }

  async function setUpApp() {
    setStarting(true);
    setError(undefined);
    setDone(undefined);
    try {
      setDialog({ kind: 'app', enrolment: await startTotp('session') });
    } catch (caught) {
      if (!cancelled(caught)) setError(messageOf(caught, 'Setting up could not start.'));
    } finally {
      setStarting(false);
    }
  }

  if (state === undefined) {
    return (
      <Stack>
        <Title order={2} size="h3">Two-factor authentication</Title>
        {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      </Stack>
    );
  }
  const allowsApp = state.methods_allowed.includes('totp');
  const allowsPasskeys = state.methods_allowed.includes('webauthn') && browserHasPasskeys();
  const any = state.totp || state.passkeys.length > 0;

  return (
    <Stack data-testid="two-factor" data-two-factor={any ? 'on' : 'off'}>
      <Title order={2} size="h3">Two-factor authentication</Title>
      <Text size="sm" c="dimmed">
        Besides your password, signing in then asks for a second proof that it is you: a code from an authenticator app on your phone,
        or a passkey (this device&apos;s fingerprint, face or PIN, or a security key). Someone who learns your password still cannot sign in.
      </Text>
      {state.required && (
        <Alert color="blue" role="status">
          This site requires two-factor authentication for your account.{any ? '' : ' You will be asked to set it up the next time you sign in.'}
        </Alert>
      )}
      <Text size="sm"><strong>Any change here signs you out everywhere else</strong> (your other browsers and devices); this browser stays signed in.</Text>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {done !== undefined && <Alert color="teal" role="status">{done}</Alert>}

      <Paper withBorder p="md" radius="md" data-method="app">
        <Stack gap="xs">
          <Group justify="space-between" wrap="wrap">
            <Title order={3} size="h5">Authenticator app</Title>
            <StateBadge on={state.totp}>{state.totp ? 'On' : 'Off'}</StateBadge>
          </Group>
          <Text size="sm" c="dimmed">
            {state.totp
              ? 'Signing in asks for the 6-digit code your app shows. For a new phone, remove the app here, then set it up again.'
              : 'An app such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis shows a new 6-digit code every 30 seconds.'}
          </Text>
          {!allowsApp && !state.totp && <Text size="sm">This site does not allow authenticator apps.</Text>}
          <Group>
            {allowsApp && !state.totp && <Button onClick={() => void setUpApp()} loading={starting}>Set up an authenticator app</Button>}
            {state.totp && <Button variant="default" onClick={() => setDialog({ kind: 'remove-app' })}>Remove</Button>}
          </Group>
        </Stack>
      </Paper>

      <Paper withBorder p="md" radius="md" data-method="passkeys">
        <Stack gap="xs">
          <Group justify="space-between" wrap="wrap">
            <Title order={3} size="h5">Passkeys</Title>
            <StateBadge on={state.passkeys.length > 0}>{state.passkeys.length === 0 ? 'None' : `${state.passkeys.length}`}</StateBadge>
          </Group>
          {state.passkeys.length === 0 && <Text size="sm" c="dimmed">You have no passkeys.</Text>}
          {state.passkeys.length > 0 && (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Name</Table.Th>
                  <Table.Th scope="col" visibleFrom="sm">Added</Table.Th>
                  <Table.Th scope="col" visibleFrom="sm">Last used</Table.Th>
                  <Table.Th scope="col"><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {state.passkeys.map((passkey) => (
                  <Table.Tr key={passkey.id} data-passkey={passkey.name}>
                    <Table.Td style={{ wordBreak: 'break-word' }}>
                      {passkey.name}
                      {/* On a phone the dates go under the name. */}
                      {narrow && <Text size="xs" c="dimmed">Added {formatTime(passkey.created_at)}; {passkey.last_used_at === null ? 'never used' : `last used ${formatTime(passkey.last_used_at)}`}</Text>}
                    </Table.Td>
                    <Table.Td visibleFrom="sm">{formatTime(passkey.created_at)}</Table.Td>
                    <Table.Td visibleFrom="sm">{passkey.last_used_at === null ? 'Never' : formatTime(passkey.last_used_at)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button size="xs" variant="subtle" onClick={() => setDialog({ kind: 'rename', passkey })} aria-label={`Rename ${passkey.name}`}>Rename</Button>
                        <Button size="xs" variant="subtle" color="red" onClick={() => setDialog({ kind: 'remove-passkey', passkey })} aria-label={`Remove ${passkey.name}`}>Remove</Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {allowsPasskeys && (
            <Group>
              <Button variant="default" onClick={() => { setError(undefined); setDone(undefined); setDialog({ kind: 'passkey' }); }}>Add a passkey</Button>
            </Group>
          )}
        </Stack>
      </Paper>

      {any && (
        <Paper withBorder p="md" radius="md" data-method="recovery-codes">
          <Stack gap="xs">
            <Title order={3} size="h5">Recovery codes</Title>
            <Text size="sm" data-testid="recovery-codes-left">
              {state.recovery_codes_left === 1 ? '1 recovery code is left.' : `${state.recovery_codes_left} recovery codes are left.`} Each signs you in once if you
              lose your phone or passkey.
            </Text>
            {state.recovery_codes_left <= 3 && <Text size="sm" c="orange.9">Few are left: make new ones and save them.</Text>}
            <Group>
              <Button variant="default" onClick={() => setDialog({ kind: 'new-codes' })}>Make new recovery codes</Button>
            </Group>
          </Stack>
        </Paper>
      )}

      <Modal opened={dialog?.kind === 'app'} onClose={() => setDialog(undefined)} title="Set up an authenticator app" size="lg">
        {dialog?.kind === 'app' && (
          <TotpSetup enrolment={dialog.enrolment}
            actions={<Button variant="default" onClick={() => setDialog(undefined)}>Cancel</Button>}
            confirm={async (otp) => {
              const result = await confirmTotp('session', otp);
              changed('The authenticator app is on. Your other sessions were signed out.', result.recovery_codes);
            }} />
        )}
      </Modal>
      <Modal opened={dialog?.kind === 'passkey'} onClose={() => setDialog(undefined)} title="Add a passkey">
        {dialog?.kind === 'passkey' && (
          <PasskeySetup context="session" actions={<Button variant="default" onClick={() => setDialog(undefined)}>Cancel</Button>}
            onAdded={(result) => changed('The passkey was added. Your other sessions were signed out.', result.recovery_codes)} />
        )}
      </Modal>
      {/* Recovery codes are closed only by their own button: they are not shown again. */}
      <Modal opened={codes !== undefined} onClose={() => undefined} withCloseButton={false} closeOnEscape={false} closeOnClickOutside={false}
        title={codes?.title ?? ''} size="lg">
        {codes !== undefined && <RecoveryCodes codes={codes.codes} continueLabel="Done" onContinue={() => setCodes(undefined)} />}
      </Modal>
      {dialog?.kind === 'remove-app' && (
        <ConfirmDialog opened title="Remove the authenticator app" confirmLabel="Remove" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await removeTotp(); changed('The authenticator app was removed. Your other sessions were signed out.'); }}>
          Signing in will no longer ask for a code from your app{state.passkeys.length > 0 ? ' (your passkeys still work)' : ''}. You will be signed out everywhere else.
          {state.required && state.passkeys.length === 0 ? ' This site requires two-factor authentication, so you will be asked to set it up again when you next sign in.' : ''}
        </ConfirmDialog>
      )}
      {dialog?.kind === 'new-codes' && (
        <ConfirmDialog opened title="Make new recovery codes" confirmLabel="Make new codes" onClose={() => setDialog(undefined)}
          onConfirm={async () => {
            const made = await regenerateRecoveryCodes();
            setDone('New recovery codes were made; the old ones no longer work. Your other sessions were signed out.');
            load();
            setCodes({ codes: made, title: 'Your new recovery codes' });
          }}>
          The recovery codes you have now stop working, and you get ten new ones to save. You will be signed out everywhere else.
        </ConfirmDialog>
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog opened title="Rename passkey" label="Passkey name" initial={dialog.passkey.name} submitLabel="Rename" onClose={() => setDialog(undefined)}
          onSubmit={async (name) => { await renamePasskey(dialog.passkey.id, name); load(); }} />
      )}
      {dialog?.kind === 'remove-passkey' && (
        <ConfirmDialog opened title="Remove passkey" confirmLabel="Remove" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await removePasskey(dialog.passkey.id); changed(`The passkey ${dialog.passkey.name} was removed. Your other sessions were signed out.`); }}>
          Remove the passkey <strong>{dialog.passkey.name}</strong>? It will no longer sign you in. You will be signed out everywhere else.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
