import { PasswordInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { getSitePolicies } from '../api/account';

/**
 * A new password typed twice, checked as it is typed against the site's minimum length (counted in
 * characters, as the server counts them). Shared by the account page's password form and the
 * screen of a required password change, so both say the same thing.
 */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const minimum = usePasswordMinimum();
  const mismatch = again !== '' && again !== password;
  const tooShort = isTooShort(password, minimum);
  return {
    password, again, minimum, mismatch, tooShort,
    /** Both typed, the same, and long enough. */
    ready: password !== '' && again === password && !tooShort,
    setPassword, setAgain,
    clear: () => { setPassword(''); setAgain(''); },
  };
}

/** The site's shortest password (GET /site/policies), once the server answered. */
export function usePasswordMinimum(): number | undefined {
  const [minimum, setMinimum] = useState<number | undefined>();
  useEffect(() => {
    getSitePolicies().then((policies) => setMinimum(policies.password_min_length), () => undefined);
  }, []);
  return minimum;
}

/** Typed, and shorter than the site allows (counted in characters, as the server counts them). */
export function isTooShort(password: string, minimum: number | undefined): boolean {
  return minimum !== undefined && password !== '' && [...password].length < minimum;
}

/**
 * The rule shown under a password field before anything is sent, and what is wrong as it is typed:
 * for a field that sets someone else's password (a new user, an administrator's reset).
 */
export function passwordRule(password: string, minimum: number | undefined): { description?: string; error?: string } {
  if (minimum === undefined) return {};
  return { description: `At least ${minimum} characters.`, ...(isTooShort(password, minimum) ? { error: `Use at least ${minimum} characters.` } : {}) };
}

export function NewPasswordFields({ state }: { state: ReturnType<typeof useNewPassword> }) {
  const { password, again, minimum, mismatch, tooShort, setPassword, setAgain } = state;
  return (
    <>
      <PasswordInput label="New password" name="new-password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)}
        description={minimum === undefined ? undefined : `At least ${minimum} characters.`} error={tooShort ? `Use at least ${minimum} characters.` : undefined} />
      <PasswordInput label="New password again" name="new-password-again" autoComplete="new-password" required value={again}
        onChange={(e) => setAgain(e.currentTarget.value)} error={mismatch ? 'The two passwords differ.' : undefined} />
    </>
  );
}
