import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { explain } from '../api/explain';
import { useSession } from './session';

/**
 * What the signed-in person administers in the Workspace the console works in, as the server
 * decides it: the explanation of their own access to that Workspace's root. The user's flags alone
 * miss a Workspace Administrator by an `admin` grant on the root (directly or through a group),
 * such as a Workspace 0 user who administers a Custom Workspace. This only decides what the
 * console offers; every change is still the server's decision.
 */
export interface Authority {
  /** Known once the server answered; until then only what the flags say is offered. */
  known: boolean;
  siteAdmin: boolean;
  /** Administrator of the current Workspace: Site Administrator, or Workspace Administrator by flag or by root grant. */
  administrator: boolean;
  /** Group Admin of some group (flags at sign-in): manages its members. */
  groupAdmin: boolean;
  /**
   * The Partner the user belongs to, or null. A Partner user administers nothing; a Partner
   * Admin manages its Partner's users, as far as the Partner's settings allow.
   */
  partnerId: number | null;
  partnerAdmin: boolean;
}

const AuthorityContext = createContext<Authority | undefined>(undefined);

export function AuthorityProvider({ children }: { children: ReactNode }) {
  const { profile, workspaceId } = useSession();
  const fromFlags: Authority = {
    known: false,
    siteAdmin: profile?.siteAdmin === true,
    administrator: profile !== undefined && (profile.siteAdmin || (profile.workspaceAdmin && workspaceId === profile.workspaceId)),
    groupAdmin: profile?.groupAdmin === true,
    // A profile kept by a console from before Partners has no such fields: no Partner.
    partnerId: profile?.partnerId ?? null,
    partnerAdmin: profile?.partnerAdmin === true,
  };
  const [answer, setAnswer] = useState<{ workspaceId: number | undefined; administrator: boolean } | undefined>();

  useEffect(() => {
    if (profile === undefined) return;
    const controller = new AbortController();
    explain('', undefined, { type: 'directory', signal: controller.signal }).then(
      (result) => setAnswer({ workspaceId, administrator: result.site_admin || result.workspace_admin }),
      () => undefined,
    );
    return () => controller.abort();
  }, [profile, workspaceId]);

  const current = answer !== undefined && answer.workspaceId === workspaceId ? answer : undefined;
  const value: Authority = current === undefined ? fromFlags : { ...fromFlags, known: true, administrator: current.administrator };
  return <AuthorityContext.Provider value={value}>{children}</AuthorityContext.Provider>;
}

export function useAuthority(): Authority {
  const value = useContext(AuthorityContext);
  if (value === undefined) throw new Error('useAuthority outside AuthorityProvider');
  return value;
}
