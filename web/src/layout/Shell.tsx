import { AppShell, Button, Group, Text, Title } from '@mantine/core';
import { NavLink, Outlet } from 'react-router';
import { AuthorityProvider, useAuthority } from '../session/authority';
import { ReauthenticationDialog } from '../session/ReauthenticationDialog';
import { useSession } from '../session/session';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

const NAV_LINK_STYLE = ({ isActive }: { isActive: boolean }) => ({
  color: 'inherit',
  fontWeight: isActive ? 700 : 400,
  textDecoration: isActive ? 'underline' : 'none',
  textUnderlineOffset: 6,
  whiteSpace: 'nowrap' as const,
});

/** The frame of every signed-in screen: who is signed in, in which Workspace, where to go, and sign out. */
export function Shell() {
  return (
    <AuthorityProvider>
      <Frame />
    </AuthorityProvider>
  );
}

function Frame() {
  const { profile, workspaceId, signOut } = useSession();
  const authority = useAuthority();
  // Administration is offered to the administrators of the current Workspace (by flag or by a root
  // admin grant) and to Group Admins; what they may do there, the server decides. A Partner user
  // is never either (the server refuses them groups and administration): they get no
  // administration, a Partner Admin only their Partner's users.
  const partnerUser = authority.partnerId !== null;
  const isAdministrator = !partnerUser && (authority.administrator || authority.groupAdmin);
  const administersPartners = !partnerUser && authority.administrator;
  // Automations act with the server's authority: only the Workspace's administrators manage them.
  const administersAutomations = !partnerUser && authority.administrator;
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap" style={{ minWidth: 0 }}>
            <Title order={1} size="h4" visibleFrom="sm">Atrium</Title>
            <WorkspaceSwitcher />
            <Group component="nav" aria-label="Main" gap="md" wrap="nowrap" style={{ overflowX: 'auto', minWidth: 0 }}>
              <NavLink to="/files" style={NAV_LINK_STYLE}>Files</NavLink>
              {/* Everyone may have links, their own (the server decides whose they see); a Partner user
                  holds no Share permission (a Partner's levels have none), so it has none. */}
              {!partnerUser && <NavLink to="/shared-links" style={NAV_LINK_STYLE}>Shared links</NavLink>}
              {isAdministrator && <NavLink to="/admin/users" style={NAV_LINK_STYLE}>Users</NavLink>}
              {isAdministrator && <NavLink to="/admin/groups" style={NAV_LINK_STYLE}>Groups</NavLink>}
              {administersPartners && <NavLink to="/admin/partners" style={NAV_LINK_STYLE}>Partners</NavLink>}
              {administersAutomations && <NavLink to="/admin/automations" style={NAV_LINK_STYLE}>Automations</NavLink>}
              {partnerUser && authority.partnerAdmin && <NavLink to="/partner/users" style={NAV_LINK_STYLE}>Partner users</NavLink>}
              {authority.siteAdmin && <NavLink to="/admin/workspaces" style={NAV_LINK_STYLE}>Workspaces</NavLink>}
              {authority.siteAdmin && <NavLink to="/admin/site" style={NAV_LINK_STYLE}>Site settings</NavLink>}
              {/* Everyone has a history: at least their own sign-ins; the server decides what else. */}
              <NavLink to="/history" style={NAV_LINK_STYLE}>History</NavLink>
              <NavLink to="/account" style={NAV_LINK_STYLE}>My account</NavLink>
            </Group>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" visibleFrom="sm" truncate>{profile?.username}</Text>
            <Button variant="default" size="xs" onClick={() => void signOut()}>Sign out</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        {/* A new Workspace starts every screen afresh. */}
        <Outlet key={workspaceId} />
      </AppShell.Main>
      <ReauthenticationDialog />
    </AppShell>
  );
}
