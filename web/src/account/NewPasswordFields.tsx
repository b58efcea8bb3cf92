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
  const [minimum, setMinimum] = useState<number | undefined>();
  useEffect(() => {
    getSitePolicies().then((policies) => setMinimum(policies.password_min_length), () => undefined);
  }, []);
  const mismatch = again !== '' && again !== password;
  const tooShort = minimum !== undefined && password !== '' && [...password].length < minimum;
  return {
    password, again, minimum, mismatch, tooShort,
    /** Both typed, the same, and long enough. */
    ready: password !== '' && again === password && !tooShort,
    setPassword, setAgain,
    clear: () => { setPassword(''); setAgain(''); },
  };
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
