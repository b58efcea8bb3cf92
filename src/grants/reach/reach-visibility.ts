import {
  canSeeGrant, isInRequestWorkspace, mayListUserGrants, overseesPath, type Call, type reachOverPath, type SitePath,
} from '../../access/index.js';
import type { GrantRecord } from '../../repositories/grants/index.js';
import type { User } from '../../repositories/users.js';
import type { ReachCause, UserReach } from './reach-on.js';

type PermissionReach = Awaited<ReturnType<typeof reachOverPath>>;

// What a caller may see of a reach: explain's rules (grants/explain.ts), applied user by user, so
// that a reach listing shows exactly what explaining each user one by one would.

/** A reason as the caller is shown it: a grant it may not list keeps its place but not its details. */
export type ShownCause = Exclude<ReachCause, { kind: 'grant' }> | (Extract<ReachCause, { kind: 'grant' }> & { visible: boolean });

/** A user's reach as the caller is shown it. */
export interface ShownUserReach extends Omit<UserReach, 'because'> {
  because: readonly ShownCause[];
}

export class ReachVisibility {
  /** Whether the caller may list the grants of a user of that Workspace (other than itself). */
  private readonly listableWorkspaces = new Map<number, boolean>();

  constructor(
    private readonly call: Call,
    private readonly reach: PermissionReach,
  ) {}

  /**
   * Whether the caller may see a user's reach on `site`: its own always (as explain without
   * user_id); another user's only where the caller oversees the path (Site Administrator,
   * Workspace Administrator, Folder Admin of a subtree holding it) and may list that user's grants
   * (the same two conditions as explain's user_id).
   */
  async maySee(site: SitePath, user: User): Promise<boolean> {
    if (this.call.caller.user?.id === user.id) return true;
    if (!this.oversees(site)) return false;
    let listable = this.listableWorkspaces.get(user.workspaceId);
    if (listable === undefined) {
      // mayListUserGrants answers the same for every user of a Workspace but the caller itself.
      listable = await mayListUserGrants(this.call.db, this.call.caller, this.call.requestWorkspaceId, user);
      this.listableWorkspaces.set(user.workspaceId, listable);
    }
    return listable;
  }

  oversees(site: SitePath): boolean {
    return overseesPath(this.reach, site.workspaceId, site.key);
  }

  /** Explain's rule for a grant it mentions: inside the request context and one the caller may list. */
  grantVisible(record: GrantRecord): boolean {
    return isInRequestWorkspace(this.call.requestWorkspaceId, record.pathKey) && canSeeGrant(this.reach, record);
  }

  show(row: UserReach): ShownUserReach {
    return { ...row, because: row.because.map((cause) => (cause.kind === 'grant' ? { ...cause, visible: this.grantVisible(cause.record) } : cause)) };
  }
}
