import { Alert, Anchor, Button, Divider, Stack, Text, TextInput, Title } from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { passkeySignInOptions, signInWithCode, signInWithPasskey, type OpenedSession } from '../api/two-factor';
import { browserHasPasskeys, passkeyProblem, usePasskey } from './passkey-browser';
import { isSignInOver, isWrongCode, messageOf, signInOverNotice, WRONG_APP_CODE, WRONG_RECOVERY_CODE } from './words';

/**
 * The second step of a sign-in, after a right password: a code from the authenticator app, a
 * recovery code, or a passkey, as the server offered (`methods`). The partial session it answers
 * lives in an HttpOnly cookie; this screen holds nothing but what is typed. When the partial
 * session is over (it expired, or too many wrong codes), the person goes back to their password
 * with `onStartOver`'s explanation.
 */
export function SecondFactorStep({ methods, onSignedIn, onStartOver }: {
  methods: readonly string[];
  onSignedIn(session: OpenedSession): Promise<void>;
  onStartOver(notice: string | undefined): void;
}) {
  const hasApp = methods.includes('totp');
  const hasPasskey = methods.includes('webauthn') && browserHasPasskeys();
  // A person with only passkeys types no app code; a recovery code is always possible.
  const [mode, setMode] = useState<'app' | 'recovery' | 'passkey'>(hasApp ? 'app' : hasPasskey ? 'passkey' : 'recovery');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState<'code' | 'passkey' | undefined>();
  const input = useRef<HTMLInputElement>(null);

  function fail(caught: unknown, wrongCode: string) {
    if (isSignInOver(caught)) {
      onStartOver(signInOverNotice(caught));
      return;
    }
    setError(isWrongCode(caught) ? wrongCode : messageOf(caught, 'The server could not be reached. Try again.'));
    setCode('');
    input.current?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy('code');
    setError(undefined);
    try {
      // An app's code may be typed with a space in the middle, as some apps show it.
      await onSignedIn(await signInWithCode(mode === 'app' ? code.replace(/\s+/g, '') : code.trim()));
    } catch (caught) {
      fail(caught, mode === 'app' ? WRONG_APP_CODE : WRONG_RECOVERY_CODE);
    } finally {
      setBusy(undefined);
    }
  }

  async function passkey() {
    setBusy('passkey');
    setError(undefined);
    try {
      const options = await passkeySignInOptions();
      let answer: unknown;
      try {
        answer = await usePasskey(options);
      } catch (caught) {
        setError(passkeyProblem(caught));
        return;
      }
      await onSignedIn(await signInWithPasskey(answer));
    } catch (caught) {
      fail(caught, 'That passkey was not accepted. Try another, or use a code.');
    } finally {
      setBusy(undefined);
    }
  }

  function switchTo(next: typeof mode) {
    setMode(next);
    setCode('');
    setError(undefined);
  }

  const appCode = mode === 'app';
  return (
    <Stack>
      <Title order={1} size="h2" id="second-step-title">Two-factor authentication</Title>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {mode !== 'passkey' && (
        <form onSubmit={submit} aria-labelledby="second-step-title">
          <Stack>
            {appCode
              ? <TextInput key="app" ref={input} label="Authentication code" description="Enter the 6-digit code from your authenticator app."
                  name="otp" autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]*" maxLength={7} required
                  value={code} onChange={(e) => setCode(e.currentTarget.value)} autoFocus />
              : <TextInput key="recovery" ref={input} label="Recovery code" description="One of the recovery codes you saved when you set up two-factor authentication. Each works once."
                  name="recovery-code" autoComplete="off" autoCapitalize="off" spellCheck={false} required
                  value={code} onChange={(e) => setCode(e.currentTarget.value)} autoFocus />}
            <Button type="submit" loading={busy === 'code'} disabled={busy === 'passkey' || code.trim() === ''}>Continue</Button>
          </Stack>
        </form>
      )}
      {mode === 'passkey' && <Text size="sm">Use the passkey you set up for this account: your device asks for your fingerprint, face, PIN or security key.</Text>}
      {hasPasskey && (
        <>
          {mode !== 'passkey' && <Divider label="or" labelPosition="center" />}
          <Button variant={mode === 'passkey' ? 'filled' : 'default'} onClick={() => void passkey()} loading={busy === 'passkey'} disabled={busy === 'code'}>
            Use a passkey
          </Button>
        </>
      )}
      <Stack gap={4}>
        {mode !== 'recovery' && <Anchor component="button" type="button" size="sm" ta="left" onClick={() => switchTo('recovery')}>Use a recovery code instead</Anchor>}
        {mode !== 'app' && hasApp && <Anchor component="button" type="button" size="sm" ta="left" onClick={() => switchTo('app')}>Use your authenticator app instead</Anchor>}
      </Stack>
      <Anchor component="button" type="button" size="sm" ta="left" onClick={() => onStartOver(undefined)}>Sign in as someone else</Anchor>
    </Stack>
  );
}
