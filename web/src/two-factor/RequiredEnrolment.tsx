import { Alert, Anchor, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { confirmTotp, readTwoFactor, startTotp, type Enrolled, type TotpEnrolment, type TwoFactorMethod } from '../api/two-factor';
import { browserHasPasskeys } from './passkey-browser';
import { PasskeySetup } from './PasskeySetup';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetup } from './TotpSetup';
import { isSignInOver, messageOf, signInOverNotice } from './words';

type Step =
  | { kind: 'starting' }
  | { kind: 'app'; enrolment: TotpEnrolment }
  | { kind: 'passkey' }
  | { kind: 'codes'; enrolled: Enrolled }
  | { kind: 'failed'; message: string };

/**
 * Sign-in for a person the site requires to have two-factor authentication they have not set up:
 * the password was right, and the server opened a partial session (in an HttpOnly cookie) that
 * allows only setting it up. An authenticator app (or a passkey, where the site allows them and
 * the browser can), then the recovery codes, once; then the person is signed in with the session
 * the confirmation opened. When the partial session is over, back to the password.
 */
export function RequiredEnrolment({ onSignedIn, onStartOver }: {
  onSignedIn(userId: number | undefined): Promise<void>;
  onStartOver(notice: string | undefined): void;
}) {
  const [step, setStep] = useState<Step>({ kind: 'starting' });
  const [allowed, setAllowed] = useState<readonly TwoFactorMethod[]>(['totp']);
  const started = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const showsCodes = step.kind === 'codes';
  // The form the person was in is gone: the screen's heading takes the focus, so a screen reader says where they are.
  useEffect(() => heading.current?.focus(), [showsCodes]);

  function handled(caught: unknown): boolean {
    if (!isSignInOver(caught)) return false;
    onStartOver(signInOverNotice(caught));
    return true;
  }

  async function beginApp() {
    setStep({ kind: 'starting' });
    try {
      setStep({ kind: 'app', enrolment: await startTotp('signing-in') });
    } catch (caught) {
      if (!handled(caught)) setStep({ kind: 'failed', message: messageOf(caught, 'Setting up could not start. Try again.') });
    }
  }

  useEffect(() => {
    // Once per screen (React runs a new screen's effects twice while developing).
    if (started.current) return;
    started.current = true;
    void (async () => {
      let methods: readonly TwoFactorMethod[] = ['totp'];
      try {
        methods = (await readTwoFactor('signing-in')).methods_allowed;
      } catch {
        // Offer the app, which every site allows unless it said otherwise.
      }
      const usable = methods.filter((method) => method !== 'webauthn' || browserHasPasskeys());
      setAllowed(usable);
      if (usable.includes('totp') || usable.length === 0) await beginApp();
      else setStep({ kind: 'passkey' });
    })();
  }, []);

  const enrolled = (result: Partial<Enrolled>) => setStep({ kind: 'codes', enrolled: { recovery_codes: result.recovery_codes ?? [], session: result.session ?? null } });
  const startOver = <Anchor component="button" type="button" size="sm" ta="left" onClick={() => onStartOver(undefined)}>Sign in as someone else</Anchor>;

  return (
    <Stack align="stretch">
      <Title order={1} size="h2" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>{step.kind === 'codes' ? 'Save your recovery codes' : 'Set up two-factor authentication'}</Title>
      {step.kind !== 'codes' && (
        <Text size="sm">
          This site asks you to confirm it is you with a second step each time you sign in, besides your password. Set it up now to
          continue: it takes a minute.
        </Text>
      )}
      {step.kind === 'starting' && <Center><Loader size="sm" aria-label="Loading" /></Center>}
      {step.kind === 'failed' && (
        <>
          <Alert color="red" role="alert">{step.message}</Alert>
          <Button onClick={() => void beginApp()} w="fit-content">Try again</Button>
        </>
      )}
      {step.kind === 'app' && (
        <>
          <TotpSetup enrolment={step.enrolment} onFailure={handled}
            confirm={async (otp) => enrolled(await confirmTotp('signing-in', otp))} />
          {allowed.includes('webauthn') && <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setStep({ kind: 'passkey' })}>Use a passkey instead</Anchor>}
        </>
      )}
      {step.kind === 'passkey' && (
        <>
          <PasskeySetup context="signing-in" onAdded={enrolled} onFailure={handled} />
          {allowed.includes('totp') && <Anchor component="button" type="button" size="sm" ta="left" onClick={() => void beginApp()}>Use an authenticator app instead</Anchor>}
        </>
      )}
      {step.kind === 'codes' && (
        <RecoveryCodes codes={step.enrolled.recovery_codes} continueLabel="Continue to Atrium"
          onContinue={() => void onSignedIn(step.enrolled.session?.user_id)} />
      )}
      {step.kind !== 'codes' && startOver}
    </Stack>
  );
}
