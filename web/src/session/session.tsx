import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, lastActivity, onSessionEnded, selectWorkspace } from '../api/client';

/** Who is signed in. Not a secret (the session itself stays in the HttpOnly cookie). */
export interface Profile {
  userId: number;
  username: string;
  workspaceId: number;
  /** Flags as at sign-in: they only decide which screens are offered; the server decides the rest. */
  siteAdmin: boolean;
  workspaceAdmin: boolean;
  groupAdmin: boolean;
}

interface SessionValue {
  profile: Profile | undefined;
  /** Why the person was sent to sign in again, shown there. */
  notice: string | undefined;
  /** The Workspace requests work in: the user's own unless they selected another. */
  workspaceId: number | undefined;
  setWorkspaceId(id: number): void;
  signIn(username: string, password: string): Promise<void>;
  signOut(): Promise<void>;
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

export function SessionProvider({ children }: { children: ReactNode }) {
  const [profile, setProfile] = useState<Profile | undefined>(storedProfile);
  const [notice, setNotice] = useState<string | undefined>();
  const [workspaceId, setWorkspaceState] = useState<number | undefined>(() => {
    const stored = sessionStorage.getItem(WORKSPACE_KEY);
    const id = stored === null ? undefined : Number(stored);
    selectWorkspace(id);
    return id;
  });
  const setWorkspaceId = useCallback((id: number) => {
    sessionStorage.setItem(WORKSPACE_KEY, String(id));
    selectWorkspace(id);
    setWorkspaceState(id);
  }, []);
  const forget = useCallback(() => {
    sessionStorage.removeItem(PROFILE_KEY);
    sessionStorage.removeItem(WORKSPACE_KEY);
    selectWorkspace(undefined);
    setWorkspaceState(undefined);
    setProfile(undefined);
  }, []);

  useEffect(() => {
    onSessionEnded(() => {
      setNotice(endedNotice());
      forget();
    });
    return () => onSessionEnded(undefined);
  }, [forget]);

  const signIn = useCallback(async (username: string, password: string) => {
    const { data } = await api<{ user_id: number; username: string; workspace_id: number }>('POST', '/sessions', {
      body: { username, password },
      signingIn: true,
    });
    const self = (await api<{ site_admin: boolean; workspace_admin: boolean; admin_group_ids: number[] }>('GET', `/users/${data.user_id}`, { homeContext: true })).data;
    const signedIn: Profile = {
      userId: data.user_id,
      username: data.username,
      workspaceId: data.workspace_id,
      siteAdmin: self.site_admin,
      workspaceAdmin: self.workspace_admin,
      groupAdmin: self.admin_group_ids.length > 0,
    };
    sessionStorage.setItem(PROFILE_KEY, JSON.stringify(signedIn));
    setNotice(undefined);
    setProfile(signedIn);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await api('DELETE', '/sessions', { signingIn: true });
    } finally {
      setNotice('You have signed out.');
      forget();
    }
  }, [forget]);

  const value = useMemo(
    () => ({ profile, notice, workspaceId: workspaceId ?? profile?.workspaceId, setWorkspaceId, signIn, signOut }),
    [profile, notice, workspaceId, setWorkspaceId, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (value === undefined) throw new Error('useSession outside SessionProvider');
  return value;
}
