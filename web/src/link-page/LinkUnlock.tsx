import { Alert, Button, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { LinkError, visit, type Link, type VisitDetails } from './api';

type Field = 'password' | 'name' | 'email' | 'company';

/** The first sentence the server gave about a field, if it named one. */
function fieldMessage(error: LinkError | undefined, field: Field): string | undefined {
  return error?.fieldErrors[field]?.[0];
}

/**
 * What a link asks before anything else: its password, a registration (name, email, company), or
 * both, sent together. The server answers with an HttpOnly cookie for this link; nothing is kept
 * by the page, so a wrong password is typed again and a right one is never seen again.
 */
export function LinkUnlock({ link, onUnlocked }: { link: Link; onUnlocked(): void }) {
  const [values, setValues] = useState<Record<Field, string>>({ password: '', name: '', email: '', company: '' });
  const [error, setError] = useState<LinkError | undefined>();
  const [busy, setBusy] = useState(false);
  const set = (field: Field) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setValues((all) => ({ ...all, [field]: value }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const details: VisitDetails = {};
    if (link.password_protected) details.password = values.password;
    if (link.require_registration) {
      // A field left empty is not sent: the server says which ones this link needs.
      for (const field of ['name', 'email', 'company'] as const) {
        const value = values[field].trim();
        if (value !== '') details[field] = value;
      }
    }
    try {
      await visit(link.code, details);
      onUnlocked();
    } catch (caught) {
      setError(caught instanceof LinkError ? caught : new LinkError(0, 'unknown', 'That did not work. Try again.'));
      setBusy(false);
    }
  }

  const wrongPassword = error?.status === 401 && link.password_protected;
  const passwordError = wrongPassword ? error.message : fieldMessage(error, 'password');
  const shownByField = passwordError !== undefined || (['name', 'email', 'company'] as const).some((f) => fieldMessage(error, f) !== undefined);
  const intro = link.password_protected && link.require_registration
    ? 'Give your name, email and company, and the link\'s password, to open it.'
    : link.password_protected
      ? 'This link has a password. Whoever sent you the link can tell you what it is.'
      : 'Give your name, email and company to open this link. The person who shared it will see them.';

  return (
    <Paper withBorder p="md" maw={480}>
      <form aria-label="Open the link" onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Text>{intro}</Text>
          {link.require_registration && (
            <>
              <TextInput label="Name" autoComplete="name" value={values.name} onChange={set('name')} error={fieldMessage(error, 'name')} />
              <TextInput label="Email" type="email" autoComplete="email" value={values.email} onChange={set('email')} error={fieldMessage(error, 'email')} />
              <TextInput label="Company" autoComplete="organization" value={values.company} onChange={set('company')} error={fieldMessage(error, 'company')} />
            </>
          )}
          {/* Mantine marks a password field in error with data-invalid only: aria-invalid tells a screen reader too. */}
          {link.password_protected && (
            <PasswordInput label="Password" autoComplete="off" value={values.password} onChange={set('password')} error={passwordError} aria-invalid={passwordError !== undefined} data-autofocus />
          )}
          {error !== undefined && !shownByField && (
            <Alert color="red" role="alert" title={error.status === 429 ? 'Too many attempts' : 'The link did not open'}>{error.message}</Alert>
          )}
          <div><Button type="submit" loading={busy}>Open</Button></div>
        </Stack>
      </form>
    </Paper>
  );
}
