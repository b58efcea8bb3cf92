import { Center, Loader } from '@mantine/core';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, lastActivity, onSessionEnded, selectWorkspace, setConfirmsAtProvider } from '../api/client';
import { openSessionChannel, type SessionChannel } from './session-channel';

/** Who is signed in. Not a secret (the session itself stays in the HttpOnly cookie). */
export interface Profile {
  userId: number;
  username: string;
  workspaceId: number;
  /** Flags as at sign-in: they only decide which screens are offered; the server decides the rest. */
  siteAdmin: boolean;
  workspaceAdmin: boolean;
  groupAdmin: boolean;
  /** The Partner the user belongs to (null for everyone else), and whether they are its Partner Admin. */
  partnerId: number | null;
  partnerAdmin: boolean;
  /** An administrator asked for a new password: the console offers nothing else until it is set. */
  passwordChangeRequired: boolean;
  /**
   * The Workspace the person last chose, kept on the server (GET /user_preferences), where a new
   * tab or another browser opens; null for none. Absent in a profile kept by an older console.
   */
  lastWorkspaceId?: number | null;
  /**
   * `sso`: the user signs in at a provider (single sign-on) and has no password, so it confirms a
   * change by signing in there again. Absent in an older profile.
   */
  authenticationMethod?: string;
}

interface SessionValue {
  profile: Profile | undefined;
  /** Why the person was sent to sign in again, shown there. */
  notice: string | undefined;
  /** The Workspace requests work in: the user's own unless they selected another. */
  workspaceId: number | undefined;
  setWorkspaceId(id: number): void;
  /**
   * Signs in with a user name and password. A person with two-factor authentication is not signed
   * in yet: the server's answer (an ApiError) says what the second step is.
   */
  signIn(username: string, password: string): Promise<void>;
  /** A second step (a code, a passkey, or setting one up) opened the session of `userId`. */
  completeSignIn(userId: number): Promise<void>;
  signOut(): Promise<void>;
  /** The required password change was made: the console opens. */
  passwordChanged(): void;
}

const PROFILE_KEY = 'atrium.profile';
const WORKSPACE_KEY = 'atrium.workspace';
const SessionContext = createContext<SessionValue | undefined>(undefined);

function storedProfile(): Profile | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(PROFILE_KEY) ?? 'null') as Profile | null;
    return value ?? undefined;
  } catch {
    return undefined;
  }
}

/** What to tell a person whose session the server ended. */
function endedNotice(): string {
  const idle = lastActivity();
  const minutes = idle === undefined ? 0 : Math.floor((Date.now() - idle) / 60_000);
  return minutes >= 1
    ? `You were signed out after ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} of inactivity. Sign in again to continue.`
    : 'Your session has ended. Sign in again to continue.';
}

/**
 * The Workspace the person last chose, or null. Not worth failing a sign-in over: a server that
 * refuses it (a required password change) leaves the console in the home Workspace.
 */
async function lastWorkspaceOf(): Promise<number | null> {
  try {
    return (await api<{ last_workspace_id: number | null }>('GET', '/user_preferences', { signingIn: true })).data.last_workspace_id;
  } catch {
    return null;
  }
}

/** The profile of a user, asked in their own Workspace. */
async function profileOf(userId: number): Promise<Profile> {
  const lastWorkspace = lastWorkspaceOf();
  const self = (await api<{ username: string; workspace_id: number; site_admin: boolean; workspace_admin: boolean; admin_group_ids: number[]; require_password_change: boolean;
    partner_id?: number | null; partner_admin?: boolean; authentication_method?: string;
  }>(
    'GET', `/users/${userId}`, { signingIn: true },
  )).data;
  return {
    userId,
    username: self.username,
    workspaceId: self.workspace_id,
    siteAdmin: self.site_admin,
    workspaceAdmin: self.workspace_admin,
    groupAdmin: self.admin_group_ids.length > 0,
    partnerId: self.partner_id ?? null,
    partnerAdmin: self.partner_admin === true,
    passwordChangeRequired: self.require_password_change,
    lastWorkspaceId: await lastWorkspace,
    authenticationMethod: self.authentication_method ?? 'password',
  };
}

/**
 * Who the session cookie belongs to, if it is still valid: a new tab, or a reload after the tab
 * was closed, has no profile but the browser still has the cookie. The explanation of one's own
 * access to the Workspace root names the caller (`user_id`), for every user, with no
 * administration needed; undefined when there is no valid session.
 */
async function probeSession(): Promise<Profile | undefined> {
  try {
    const { data } = await api<{ user_id: number | null }>('GET', '/permissions/explain', { query: { path: '', type: 'directory' }, signingIn: true });
    return data.user_id === null ? undefined : await profileOf(data.user_id);
  } catch {
    return undefined;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [profile, setProfile] = useState<Profile | undefined>(storedProfile);
  // With no profile in this tab, the cookie may still hold a session: ask before offering sign-in.
  const [checking, setChecking] = useState(() => storedProfile() === undefined);
  const [notice, setNotice] = useState<string | undefined>();
  const [workspaceId, setWorkspaceState] = useState<number | undefined>(() => {
    const stored = sessionStorage.getItem(WORKSPACE_KEY);
    const id = stored === null ? undefined : Number(stored);
    selectWorkspace(id);
    return id;
  });
  const channel = useRef<SessionChannel | undefined>(undefined);
  // A user of a sign-in provider confirms changes there (api/client.ts).
  useEffect(() => setConfirmsAtProvider(profile?.authenticationMethod === 'sso'), [profile]);

  /** Works in `id` in this tab, as long as it lasts. */
  const workIn = useCallback((id: number) => {
    sessionStorage.setItem(WORKSPACE_KEY, String(id));
    selectWorkspace(id);
    setWorkspaceState(id);
  }, []);
  // The person chose: the server keeps it, so a new tab or another browser opens there too.
  const setWorkspaceId = useCallback((id: number) => {
    workIn(id);
    api('PATCH', '/user_preferences', { body: { last_workspace_id: id }, homeContext: true }).catch(() => undefined);
  }, [workIn]);
  const forget = useCallback(() => {
    sessionStorage.removeItem(PROFILE_KEY);
    sessionStorage.removeItem(WORKSPACE_KEY);
    selectWorkspace(undefined);
    setWorkspaceState(undefined);
    setProfile(undefined);
  }, []);
  const remember = useCallback((signedIn: Profile) => {
    sessionStorage.setItem(PROFILE_KEY, JSON.stringify(signedIn));
    // A tab that chose no Workspace yet opens in the one the person last chose, wherever that was.
    const last = signedIn.lastWorkspaceId ?? null;
    if (sessionStorage.getItem(WORKSPACE_KEY) === null && last !== null && last !== signedIn.workspaceId) workIn(last);
    setNotice(undefined);
    setProfile(signedIn);
  }, [workIn]);

  useEffect(() => {
    onSessionEnded(() => {
      setNotice(endedNotice());
      forget();
    });
    return () => onSessionEnded(undefined);
  }, [forget]);

  useEffect(() => {
    if (!checking) return;
    let cancelled = false;
    void probeSession().then((found) => {
      if (cancelled) return;
      if (found !== undefined) remember(found);
      setChecking(false);
    });
    return () => { cancelled = true; };
  }, [checking, remember]);

  // The tabs of one browser share the cookie, so they share the session: what one does, the others follow.
  useEffect(() => {
    const opened = openSessionChannel({
      signedOut() {
        setNotice('You signed out in another tab.');
        forget();
      },
      signedIn(userId) {
        // Another tab signed in (perhaps as someone else): this one now acts with that session.
        if (storedProfile()?.userId === userId) return;
        forget();
        setChecking(true);
      },
    });
    channel.current = opened;
    return () => opened.close();
  }, [forget]);

  const completeSignIn = useCallback(async (userId: number) => {
    remember(await profileOf(userId));
    channel.current?.announceSignIn(userId);
  }, [remember]);

  const signIn = useCallback(async (username: string, password: string) => {
    const { data } = await api<{ user_id: number; username: string; workspace_id: number }>('POST', '/sessions', {
      body: { username, password },
      signingIn: true,
    });
    await completeSignIn(data.user_id);
  }, [completeSignIn]);

  const signOut = useCallback(async () => {
    try {
      await api('DELETE', '/sessions', { signingIn: true });
    } finally {
      setNotice('You have signed out.');
      forget();
      channel.current?.announceSignOut();
    }
  }, [forget]);

  const passwordChanged = useCallback(() => {
    if (profile !== undefined) remember({ ...profile, passwordChangeRequired: false });
  }, [profile, remember]);

  const value = useMemo(
    () => ({ profile, notice, workspaceId: workspaceId ?? profile?.workspaceId, setWorkspaceId, signIn, completeSignIn, signOut, passwordChanged }),
    [profile, notice, workspaceId, setWorkspaceId, signIn, completeSignIn, signOut, passwordChanged],
  );
  if (checking) return <Center mih="100vh"><Loader size="sm" aria-label="Loading" /></Center>;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (value === undefined) throw new Error('useSession outside SessionProvider');
  return value;
}
