import { Divider, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConnectPanel } from '../account/ConnectPanel';
import { ApiKeys } from '../account/ApiKeys';
import { PasswordForm } from '../account/PasswordForm';
import { SshKeys } from '../account/SshKeys';
import { TwoFactorSection } from '../account/TwoFactorSection';
import { useSession } from '../session/session';

export function AccountPage() {
  const { profile } = useSession();
  // A key made by the Connect panel shows in the API keys' list at once.
  const [keysVersion, setKeysVersion] = useState(0);
  if (profile === undefined) return null;
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">My account</Title>
      {/* A Group Admin or Folder Admin who cannot list this user adds them by this id. */}
      <Text size="sm" data-testid="own-user-id">Signed in as <strong>{profile.username}</strong>, user id #{profile.userId}.</Text>
      <PasswordForm userId={profile.userId} />
      <Divider />
      <TwoFactorSection />
      <Divider />
      <ConnectPanel username={profile.username} onKeyCreated={() => setKeysVersion((v) => v + 1)} />
      <Divider />
      <ApiKeys key={keysVersion} />
      <Divider />
      <SshKeys />
    </Stack>
  );
}
