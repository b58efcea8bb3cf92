import { Alert, Button, Center, Divider, Loader, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { listSignInChoices, signInAddress, type SignInChoice } from '../api/sso';
import { safeNext } from '../session/RequireSession';
import { useSession } from '../session/session';
import { SECOND_STEP_NEEDED, SETUP_REQUIRED } from '../two-factor/words';

// The second step, and setting it up (a QR code), are loaded only for the people who have them.
const SecondFactorStep = lazy(() => import('../two-factor/SecondFactorStep').then((m) => ({ default: m.SecondFactorStep })));
const RequiredEnrolment = lazy(() => import('../two-factor/RequiredEnrolment').then((m) => ({ default: m.RequiredEnrolment })));

/** Where a sign-in stands: the password, then a second step or the setting up the site requires. */
type Step = { kind: 'password' } | { kind: 'second-factor'; methods: readonly string[] } | { kind: 'enrolment' };

/** Why a sign-in with a provider came back without a session, in the console's own words (the server sends only the code). */
const SSO_ERRORS: Record<string, string> = {
  not_linked: 'Your account at the sign-in provider is not linked to an Atrium user. An Atrium user already has its user name, so it is not signed in by that name alone: ask an administrator to link your account to it.',
  no_account: 'There is no Atrium user for your account at the sign-in provider. Ask an administrator to create one, or to link your account to yours.',
  no_username: 'The sign-in provider did not say your user name. Ask an administrator to check the provider\'s settings.',
  disabled: 'Your Atrium user is disabled. Ask an administrator.',
  not_allowed: 'Your Atrium user may not use the console from here. Ask an administrator.',
  failed: 'Signing in with the provider did not work. Try again; if it keeps failing, an administrator can see why in History.',
  expired: 'That sign-in had ended, or was used already. Start again.',
  unavailable: 'That sign-in provider is not available now. Sign in another way, or ask an administrator.',
};

export function SignInPage() {
  const { profile, notice, signIn, completeSignIn } = useSession();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  // Why the person is back at the password (the second step ran out), shown until they act.
  const [startedOver, setStartedOver] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [providers, setProviders] = useState<SignInChoice[]>([]);
  useEffect(() => {
    void listSignInChoices().then(setProviders);
  }, []);
  const ssoError = params.get('sso_error');
  const next = safeNext(params.get('next'));

  if (profile !== undefined) return <Navigate to={next} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setStartedOver(undefined);
    try {
      await signIn(username, password);
    } catch (caught) {
      setPassword('');
      // The password was right: the server asks for the second step, or for setting one up.
      if (caught instanceof ApiError && caught.type === SECOND_STEP_NEEDED) {
        const methods = caught.data.two_factor_authentication_methods;
        setStep({ kind: 'second-factor', methods: Array.isArray(methods) ? methods.filter((m): m is string => typeof m === 'string') : ['totp'] });
      } else if (caught instanceof ApiError && caught.type === SETUP_REQUIRED) {
        setStep({ kind: 'enrolment' });
      } else {
        // The server's own words: one message for every wrong username or password, another while locked.
        setError(caught instanceof ApiError ? caught.message : 'The server could not be reached. Try again.');
      }
    } finally {
      setBusy(false);
    }
  }

  /** Back to the password: the same person when the second step ran out (`why`), someone else when there is no reason. */
  function startOver(why: string | undefined) {
    if (why === undefined) setUsername('');
    setStep({ kind: 'password' });
    setStartedOver(why);
  }

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p={{ base: 'lg', xs: 'xl' }} radius="md" w="100%" maw={step.kind === 'enrolment' ? 560 : 420}>
        <Suspense fallback={<Center><Loader size="sm" aria-label="Loading" /></Center>}>
          {step.kind === 'second-factor' && (
            <SecondFactorStep methods={step.methods} onSignedIn={(session) => completeSignIn(session.user_id)} onStartOver={startOver} />
          )}
          {step.kind === 'enrolment' && (
            <RequiredEnrolment onStartOver={startOver}
              onSignedIn={async (userId) => {
                if (userId !== undefined) await completeSignIn(userId);
                // A server that did not say whose session it opened: the page finds out as a new tab does.
                else window.location.assign(next);
              }} />
          )}
        </Suspense>
        {step.kind === 'password' && (
          <form onSubmit={submit} aria-labelledby="sign-in-title">
            <Stack>
              <Title order={1} size="h2" id="sign-in-title">Sign in to Atrium</Title>
              {notice !== undefined && error === undefined && startedOver === undefined && <Alert color="blue" role="status">{notice}</Alert>}
              {startedOver !== undefined && <Alert color="blue" role="status">{startedOver}</Alert>}
              {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
              {error === undefined && startedOver === undefined && ssoError !== null && <Alert color="red" role="alert">{SSO_ERRORS[ssoError] ?? SSO_ERRORS.failed}</Alert>}
              {providers.length > 0 && (
                <>
                  {/* Links, not scripts: the server sends the browser on to the provider. */}
                  {providers.map((provider) => (
                    <Button key={provider.id} component="a" href={signInAddress(provider.id, next)} variant="default">Sign in with {provider.label}</Button>
                  ))}
                  <Divider label="or with your Atrium password" labelPosition="center" />
                </>
              )}
              <TextInput label="Username" name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.currentTarget.value)} autoFocus={username === ''} />
              <PasswordInput label="Password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoFocus={username !== ''} />
              <Button type="submit" loading={busy}>Sign in</Button>
              {providers.length > 0 && <Text size="sm" c="dimmed">If your organisation signs you in elsewhere, use the button above.</Text>}
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
