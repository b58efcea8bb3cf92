import { Divider, Stack, Text, Title } from '@mantine/core';
import { ApiKeys } from '../account/ApiKeys';
import { PasswordForm } from '../account/PasswordForm';
import { SshKeys } from '../account/SshKeys';
import { useSession } from '../session/session';

export function AccountPage() {
  const { profile } = useSession();
  if (profile === undefined) return null;
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">My account</Title>
      {/* A Group Admin or Folder Admin who cannot list this user adds them by this id. */}
      <Text size="sm" data-testid="own-user-id">Signed in as <strong>{profile.username}</strong>, user id #{profile.userId}.</Text>
      <PasswordForm userId={profile.userId} />
      <Divider />
      <ApiKeys />
      <Divider />
      <SshKeys />
    </Stack>
  );
}
