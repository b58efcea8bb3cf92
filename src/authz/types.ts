// Types of the pure authorization engine. Paths are canonical, lower-cased site path keys
// ('' is the site root, a Custom Workspace N lives at '_/workspaces/N'); callers canonicalise,
// the engine only compares strings.

export type Level = 'admin' | 'full' | 'readonly' | 'writeonly' | 'list' | 'history' | 'bundle';

export type Capability = 'list' | 'read' | 'write' | 'delete' | 'history' | 'share' | 'manage';

export type Grantee =
  | { readonly kind: 'user'; readonly userId: number }
  | { readonly kind: 'group'; readonly groupId: number }
  // ALL-of: only users who belong to every listed group.
  | { readonly kind: 'groups'; readonly groupIds: readonly number[] }
  // Every user of the Partner, and nobody else: a Partner user holds these grants only.
  | { readonly kind: 'partner'; readonly partnerId: number };

export interface Grant {
  readonly id: number;
  readonly pathKey: string;
  readonly grantee: Grantee;
  readonly level: Level;
  readonly recursive: boolean;
}

export interface Subject {
  readonly userId: number;
  /** The Workspace the user belongs to. */
  readonly workspaceId: number;
  readonly siteAdmin: boolean;
  /** The user's own `workspace_admin` flag; it only ever applies to `workspaceId`. */
  readonly workspaceAdmin: boolean;
  /** Groups the user is a member of. */
  readonly groupIds: ReadonlySet<number>;
  /**
   * The Partner the user belongs to, or null. A Partner user's access is exactly its Partner's
   * grants: no grant of another kind matches it and no administrative flag counts for it.
   */
  readonly partnerId: number | null;
  /**
   * Set when the subject acts through a share link (docs/sharing.md): it reaches only the link's
   * paths, with only the link's capabilities there, and never more than the user itself holds now.
   */
  readonly extent?: Extent;
}

/** What a share link lets its holder reach of its creator's access (authz/extent.ts). */
export interface Extent {
  readonly paths: readonly ExtentPath[];
  /** At most `list`, `read`, `write` and `delete`: a link never shares, manages or reads History. */
  readonly capabilities: readonly Capability[];
}

export interface ExtentPath {
  readonly pathKey: string;
  /** A folder with everything below it; else the path itself and, for a folder, the files directly in it. */
  readonly recursive: boolean;
}

export type EntryType = 'file' | 'directory';

export interface Target {
  readonly pathKey: string;
  readonly type: EntryType;
}

/** How a matching grant reached the subject. */
export type GrantVia =
  | 'user'
  | { readonly groupId: number }
  | { readonly groupIds: readonly number[] }
  | { readonly partnerId: number };

export interface GrantSource {
  readonly kind: 'grant';
  readonly permissionId: number;
  readonly via: GrantVia;
}

export type RoleSource =
  | { readonly kind: 'role'; readonly role: 'site_admin' }
  | { readonly kind: 'role'; readonly role: 'workspace_admin_flag'; readonly workspaceId: number }
  | {
      readonly kind: 'role';
      readonly role: 'workspace_admin_grant';
      readonly workspaceId: number;
      readonly permissionId: number;
      readonly via: GrantVia;
    };

export type ReasonSource = GrantSource | RoleSource;

export type AdminRole = 'site_admin' | 'workspace_admin' | 'folder_admin';

/**
 * One line of an explanation: a capability or a role, and what produced it.
 * Capabilities come from a covering grant, or from the site_admin / workspace_admin_flag role.
 * A Workspace root grant appears twice: as the workspace_admin role (source workspace_admin_grant)
 * and, like any covering grant, as the grant giving its capabilities.
 */
export type Reason =
  | { readonly kind: 'capability'; readonly capability: Capability; readonly source: ReasonSource }
  | { readonly kind: 'role'; readonly role: AdminRole; readonly source: ReasonSource };

export type NearMissCode =
  /** A non-recursive grant on an ancestor that covers neither this path nor it as a direct file. */
  | 'not_recursive'
  /** A group grant whose group the subject is not a member of. */
  | 'not_member'
  /** An ALL-of grant; `missingGroupIds` lists the groups the subject lacks. */
  | 'missing_groups'
  /** A user grant for another user. */
  | 'other_user'
  /** A Partner grant of a Partner the subject does not belong to. */
  | 'other_partner'
  /** A grant to a user or group, which a Partner user never holds: its Partner's grants are its only access. */
  | 'partner_user'
  /**
   * A grantee that can match nobody: an ALL-of grant listing no group, a Partner grant of a level
   * no Partner may hold, or an unknown kind.
   */
  | 'invalid_grantee';

export type NearMissReason =
  | { readonly code: 'not_recursive' }
  | { readonly code: 'not_member'; readonly groupId: number }
  | { readonly code: 'missing_groups'; readonly missingGroupIds: readonly number[] }
  | { readonly code: 'other_user'; readonly userId: number }
  | { readonly code: 'other_partner'; readonly partnerId: number }
  | { readonly code: 'partner_user' }
  | { readonly code: 'invalid_grantee' };

/** A grant on the target's path or an ancestor that did not apply, with every reason why. */
export interface NearMiss {
  readonly permissionId: number;
  readonly pathKey: string;
  readonly level: Level;
  readonly recursive: boolean;
  readonly reasons: readonly NearMissReason[];
}

/** What a subject may do on one path, without the explanation. */
export interface Access {
  /** Distinct capabilities in the order of contract 5.1 (CAPABILITY_ORDER). */
  readonly capabilities: readonly Capability[];
  readonly siteAdmin: boolean;
  /**
   * Workspace Administrator of the target's Workspace (N >= 1), by flag or by root grant. Strictly
   * the role: a Site Administrator is not reported here unless it also holds the role, and it is
   * always false in Workspace 0, which has no Workspace Administrator.
   */
  readonly workspaceAdmin: boolean;
  /**
   * Strictly "an `admin` grant that is not a Workspace root grant covers the target". Roles are
   * reported in their own fields, so a Site or Workspace Administrator without such a grant has
   * folderAdmin false even though its authority includes the folder's.
   */
  readonly folderAdmin: boolean;
}

export interface Decision extends Access {
  readonly target: Target;
  /** The Workspace the target lies in (0 outside every Custom Workspace root). */
  readonly workspaceId: number;
  readonly reasons: readonly Reason[];
  readonly nearMisses: readonly NearMiss[];
}

/** One entry of a folder listing, named by its path segment key (lower-cased). */
export interface ChildEntry {
  readonly name: string;
  readonly type: EntryType;
}

export interface ChildAccess extends Access {
  readonly name: string;
  readonly pathKey: string;
  readonly type: EntryType;
}
