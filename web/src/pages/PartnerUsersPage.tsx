import { Alert, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { getPartner, type Partner } from '../api/partners';
import { PartnerUsers } from '../admin/PartnerUsers';
import { useSession } from '../session/session';

/**
 * A Partner Admin's page: their Partner's users. Adding and deleting users is offered only when
 * the Partner allows user creation, setting a password only when it allows credential changes,
 * as the Partner's own settings say (`GET /partners/<id>`), and never on another Partner Admin;
 * the server checks the same. With neither setting there is nobody to manage, and it says so.
 */
export function PartnerUsersPage() {
  const { profile } = useSession();
  const partnerId = profile?.partnerId ?? null;
  const [partner, setPartner] = useState<Partner | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    if (partnerId === null) return;
    const controller = new AbortController();
    getPartner(partnerId, controller.signal).then(setPartner, (caught: unknown) => {
      if (!controller.signal.aborted) setError(caught instanceof Error ? caught.message : 'Your Partner could not be read.');
    });
    return () => controller.abort();
  }, [partnerId]);

  if (partnerId === null || profile?.partnerAdmin !== true) {
    return <Text c="dimmed">Only a Partner Admin manages a Partner&apos;s users.</Text>;
  }
  return (
    <Stack>
      <Title order={1} size="h2">Partner users</Title>
      {error !== undefined && <Alert color="red" role="alert">{error}</Alert>}
      {partner === undefined && error === undefined && <Center><Loader size="sm" aria-label="Loading" /></Center>}
      {partner !== undefined && !partner.allow_user_creation && !partner.allow_credential_changes && (
        // The server shows such a Partner Admin no more than a Partner user: nobody to manage.
        <Text>{partner.name} does not let its Partner Admins manage its users. The administrators of its Workspace add users and set their passwords.</Text>
      )}
      {partner !== undefined && (partner.allow_user_creation || partner.allow_credential_changes) && (
        <>
          <Text size="sm" c="dimmed">
            {partner.allow_user_creation ? 'You may add and remove the users of your Partner.' : 'Your Partner does not let its Partner Admins add or remove users: ask its administrators.'}
            {' '}
            {partner.allow_credential_changes ? 'You may set their passwords.' : 'Its administrators set their passwords.'}
            {' '}
            Other Partner Admins are managed by the administrators of its Workspace.
          </Text>
          <PartnerUsers partnerId={partner.id} partnerName={partner.name} selfId={profile.userId}
            rights={{
              create: partner.allow_user_creation, delete: partner.allow_user_creation, setPassword: partner.allow_credential_changes,
              appointAdmins: false, onPartnerAdmins: false,
            }} />
        </>
      )}
    </Stack>
  );
}
