import { Divider, Stack, Title } from '@mantine/core';
import { ApiKeys } from '../account/ApiKeys';
import { PasswordForm } from '../account/PasswordForm';
import { useSession } from '../session/session';

export function AccountPage() {
  const { profile } = useSession();
  if (profile === undefined) return null;
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">My account</Title>
      <PasswordForm userId={profile.userId} />
      <Divider />
      <ApiKeys />
    </Stack>
  );
}
