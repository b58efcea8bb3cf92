import { AppShell, Burger, Button, Group, NavLink as MantineNavLink, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useReducedMotion } from '@mantine/hooks';
import { useEffect } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { AuthorityProvider, useAuthority } from '../session/authority';
import { ReauthenticationDialog } from '../session/ReauthenticationDialog';
import { useSession } from '../session/session';
import { useNarrow } from './useNarrow';
import { workspaceColour } from './workspace-colour';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

/** The frame of every signed-in screen: who is signed in, in which Workspace, where to go, and sign out. */
export function Shell() {
  return (
    <AuthorityProvider>
      <Frame />
    </AuthorityProvider>
  );
}

interface Destination {
  to: string;
  label: string;
}

/**
 * Where the signed-in person may go, in groups a person recognises: their files, what they
 * administer, the site, and themselves. Administration is offered to the administrators of the
 * current Workspace (by flag or by a root admin grant) and to Group Admins; what they may do
 * there, the server decides. A Partner user is never either (the server refuses them groups and
 * administration): they get no administration, a Partner Admin only their Partner's users.
 */
function useDestinations(): { heading: string; links: Destination[] }[] {
  const authority = useAuthority();
  const partnerUser = authority.partnerId !== null;
  const isAdministrator = !partnerUser && (authority.administrator || authority.groupAdmin);
  // Partners and automations act with the Workspace's authority: only its administrators manage them.
  const administersWorkspace = !partnerUser && authority.administrator;
  const work: Destination[] = [
    { to: '/files', label: 'Files' },
    // Everyone may have deleted something, or may delete where others did: the server decides what is seen.
    { to: '/trash', label: 'Trash' },
    // A Partner user holds no Share permission (a Partner's levels have none), so has no links.
    ...(partnerUser ? [] : [{ to: '/shared-links', label: 'Shared links' }]),
    // Everyone has a history: at least their own sign-ins; the server decides what else.
    { to: '/history', label: 'History' },
  ];
  const administration: Destination[] = [
    ...(isAdministrator ? [{ to: '/admin/users', label: 'Users' }, { to: '/admin/groups', label: 'Groups' }] : []),
    ...(administersWorkspace ? [{ to: '/admin/partners', label: 'Partners' }, { to: '/admin/automations', label: 'Automations' }] : []),
    ...(partnerUser && authority.partnerAdmin ? [{ to: '/partner/users', label: 'Partner users' }] : []),
  ];
  const site: Destination[] = authority.siteAdmin ? [{ to: '/admin/workspaces', label: 'Workspaces' }, { to: '/admin/site', label: 'Site settings' }] : [];
  return [
    { heading: 'Your work', links: work },
    { heading: 'This Workspace', links: administration },
    { heading: 'The site', links: site },
    { heading: 'You', links: [{ to: '/account', label: 'My account' }] },
  ].filter((group) => group.links.length > 0);
}

function Frame() {
  const { profile, workspaceId, signOut } = useSession();
  const destinations = useDestinations();
  // On a narrow screen the navigation is a drawer behind the burger; it closes once a place is chosen.
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  useEffect(close, [location.pathname, close]);
  const colour = workspaceColour(workspaceId ?? 0);
  // A closed drawer is slid off the screen: hidden too, so that the keyboard does not wander into it.
  const narrow = useNarrow();
  // The theme's respectReducedMotion stills dialogs and menus; the drawer's slide and the burger's morph have their own.
  const stillness = useReducedMotion();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 210, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md" transitionDuration={stillness ? 0 : undefined}>
      {/* The Workspace's colour underlines the header on every screen, so the person always sees where they work. */}
      <AppShell.Header style={{ borderBottom: `3px solid var(--mantine-color-${colour}-6)` }} data-workspace-colour={colour}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" transitionDuration={stillness ? 0 : undefined} aria-label={opened ? 'Close navigation' : 'Open navigation'} aria-expanded={opened} aria-controls="main-navigation" />
            <Title order={1} size="h4" visibleFrom="sm">Atrium</Title>
            <WorkspaceSwitcher />
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Text size="sm" visibleFrom="sm" truncate maw={220}>{profile?.username}</Text>
            <Button variant="default" size="xs" onClick={() => void signOut()} style={{ flexShrink: 0 }}>Sign out</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" id="main-navigation" style={narrow && !opened ? { visibility: 'hidden' } : undefined}>
        <AppShell.Section grow component={ScrollArea}>
          <nav aria-label="Main">
            <Stack gap="sm">
              {destinations.map((group) => (
                <div key={group.heading} role="group" aria-label={group.heading}>
                  <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={2} aria-hidden="true">{group.heading}</Text>
                  {group.links.map((link) => (
                    <MantineNavLink
                      key={link.to}
                      component={NavLink}
                      to={link.to}
                      label={link.label}
                      active={location.pathname === link.to || location.pathname.startsWith(`${link.to}/`)}
                      // Filled: white on the primary colour reads at 4.5:1; the light variant's text does not.
                      variant="filled"
                      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                    />
                  ))}
                </div>
              ))}
            </Stack>
          </nav>
        </AppShell.Section>
        <AppShell.Section hiddenFrom="sm" pt="xs">
          <Text size="sm" c="dimmed" px="sm" truncate>Signed in as {profile?.username}</Text>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        {/* A new Workspace starts every screen afresh. */}
        <Outlet key={workspaceId} />
      </AppShell.Main>
      <ReauthenticationDialog />
    </AppShell>
  );
}
