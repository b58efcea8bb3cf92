import { hashPassword } from '../../src/identity/index.js';
import { hashSecret, newApiKeySecret, newSessionId } from '../../src/identity/index.js';
import type { BulkWriter, Row } from './bulk-writer.js';
import { bigFolder, fillerGrant, fixedGrants, type PlannedGrant } from './grant-plan.js';
import { BENCH_ADMIN_ID, FILE_NAME, FOLDER_NAME, planSite, workspaceRoot, type SitePlan } from './site-plan.js';
import type { SiteShape } from './site-shape.js';

export const BENCH_PASSWORD = 'bench password, long enough';

/** What the scenarios need to call the seeded site. */
export interface SeededSite {
  plan: SitePlan;
  siteKey: string;
  member: { id: number; username: string; key: string; session: string };
  workspaceAdmin: { id: number; username: string; key: string };
  /**
   * A key for each ordinary user of every Workspace (all but the first two of each), for the
   * activity scenarios: each request another user, so each user's first one writes its activity.
   */
  activityKeys: string[];
  /** Grants in the site now. */
  grants: number;
  fixedGrantCount: number;
}

/** Builds the whole site except the filler grants, which `growGrants` adds step by step. */
export async function seedSite(writer: BulkWriter, shape: SiteShape, folderSizes: readonly number[]): Promise<SeededSite> {
  const plan = planSite(shape);
  const now = Date.now();
  // One argon2id hash for every user: hashing 10,000 passwords would take minutes.
  const passwordHash = await hashPassword(BENCH_PASSWORD);

  await writer.insert('workspaces', ['id', 'name', 'created_at'], range(1, shape.workspaces, (w) => [w, `Workspace ${w}`, now]));
  await writer.insert('users', USER_COLUMNS, users(plan, passwordHash, now));
  await writer.insert('groups', ['id', 'workspace_id', 'name', 'name_key', 'created_at'], groups(plan, now));
  await writer.insert('group_users', ['group_id', 'user_id', 'admin', 'created_at'], memberships(plan, now));
  await writer.insert('entries', ENTRY_COLUMNS, entries(plan, folderSizes, now));

  const fixed = fixedGrants(plan, folderSizes);
  await writeGrants(writer, fixed, 1, now);

  const memberId = plan.userId(1, plan.member.index);
  const adminId = plan.userId(1, plan.workspaceAdmin.index);
  const siteKey = newApiKeySecret();
  const memberKey = newApiKeySecret();
  const adminKey = newApiKeySecret();
  const key = (name: string, userId: number | null, workspaceId: number, secret: string, lastUseAt: number | null = null): Row => {
    const { lookup, hash } = hashSecret(secret);
    return [name, userId, 'full', workspaceId, lookup, hash, now, null, lastUseAt];
  };
  // The activity keys' own last use is set ahead, so their once-a-minute touch never falls due in
  // the run and the activity scenarios measure the users' activity writes alone.
  const aheadOfTheRun = now + 365 * 24 * 3_600_000;
  const activityUsers = Array.from({ length: shape.workspaces }, (_, w) => Array.from({ length: Math.max(0, shape.usersPerWorkspace - 2) }, (_unused, j) => ({
    workspaceId: w + 1, userId: plan.userId(w + 1, j + 2),
  }))).flat();
  const activityKeys = activityUsers.map(() => newApiKeySecret());
  await writer.insert('api_keys', ['name', 'user_id', 'permission_set', 'workspace_id', 'lookup', 'secret_hash', 'created_at', 'expires_at', 'last_use_at'], [
    key('bench site-wide key', null, 0, siteKey),
    key('bench member key', memberId, 1, memberKey),
    key('bench Workspace Administrator key', adminId, 1, adminKey),
    ...activityUsers.map((u, i) => key('bench activity key', u.userId, u.workspaceId, activityKeys[i] as string, aheadOfTheRun)),
  ]);
  const session = newSessionId();
  const { lookup, hash } = hashSecret(session);
  await writer.insert('sessions', ['user_id', 'lookup', 'secret_hash', 'created_at', 'last_active_at'], [[memberId, lookup, hash, now, now]]);

  return {
    plan,
    siteKey,
    member: { id: memberId, username: username(1, plan.member.index), key: memberKey, session },
    workspaceAdmin: { id: adminId, username: username(1, plan.workspaceAdmin.index), key: adminKey },
    activityKeys,
    grants: fixed.length,
    fixedGrantCount: fixed.length,
  };
}

/** Adds filler grants until the site holds `target` grants. */
export async function growGrants(writer: BulkWriter, site: SeededSite, target: number): Promise<void> {
  if (target <= site.grants) return;
  const now = Date.now();
  const filler: PlannedGrant[] = [];
  for (let i = site.grants - site.fixedGrantCount; i < target - site.fixedGrantCount; i += 1) filler.push(fillerGrant(site.plan, i));
  await writeGrants(writer, filler, site.grants + 1, now);
  site.grants = target;
}

export async function finishSeeding(writer: BulkWriter): Promise<void> {
  await writer.finish(['workspaces', 'users', 'groups', 'group_users', 'api_keys', 'sessions', 'permissions', 'entries']);
}

async function writeGrants(writer: BulkWriter, grants: readonly PlannedGrant[], firstId: number, now: number): Promise<void> {
  await writer.insert(
    'permissions',
    ['id', 'workspace_id', 'path', 'path_key', 'user_id', 'group_id', 'permission', 'recursive', 'created_at'],
    grants.map((g, i) => [firstId + i, g.workspaceId, g.path, g.path.toLowerCase(), g.userId, g.groupId, g.level, g.recursive, now]),
  );
  const allOf: Row[] = [];
  grants.forEach((g, i) => { for (const groupId of g.allOf ?? []) allOf.push([firstId + i, groupId]); });
  await writer.insert('permission_groups', ['permission_id', 'group_id'], allOf);
}

const USER_COLUMNS = ['id', 'workspace_id', 'username', 'username_key', 'name', 'email', 'password_hash', 'site_admin', 'workspace_admin', 'disabled', 'created_at', 'password_set_at'];
const ENTRY_COLUMNS = ['path', 'path_key', 'parent_key', 'type', 'size', 'storage_key', 'created_at', 'mtime'];

const username = (workspaceId: number, index: number) => `w${workspaceId}-user${index}`;

function* users(plan: SitePlan, passwordHash: string, now: number): Generator<Row> {
  yield [BENCH_ADMIN_ID, 0, 'bench-admin', 'bench-admin', 'Bench Admin', '', passwordHash, true, false, false, now, now];
  for (let w = 1; w <= plan.shape.workspaces; w += 1) {
    for (let j = 0; j < plan.shape.usersPerWorkspace; j += 1) {
      const name = username(w, j);
      // The first user of each Workspace is its Workspace Administrator by flag.
      yield [plan.userId(w, j), w, name, name, `User ${j} of ${w}`, `${name}@example.com`, passwordHash, false, j === 0, false, now, now];
    }
  }
}

function* groups(plan: SitePlan, now: number): Generator<Row> {
  for (let w = 1; w <= plan.shape.workspaces; w += 1) {
    for (let g = 0; g < plan.shape.groupsPerWorkspace; g += 1) yield [plan.groupId(w, g), w, `w${w}-group${g}`, `w${w}-group${g}`, now];
  }
}

function* memberships(plan: SitePlan, now: number): Generator<Row> {
  for (let w = 1; w <= plan.shape.workspaces; w += 1) {
    for (let g = 0; g < plan.shape.groupsPerWorkspace; g += 1) {
      const members = [...new Set(plan.groupMembers(g))];
      // The first member of every group is its Group Admin.
      for (const [k, j] of members.entries()) yield [plan.groupId(w, g), plan.userId(w, j), k === 0, now];
    }
  }
}

function* entries(plan: SitePlan, folderSizes: readonly number[], now: number): Generator<Row> {
  const { shape } = plan;
  const entry = (path: string, type: 'directory' | 'file', size: number | null): Row => {
    const slash = path.lastIndexOf('/');
    return [path, path.toLowerCase(), slash === -1 ? '' : path.slice(0, slash).toLowerCase(), type, size, null, now, now];
  };
  yield entry('_', 'directory', null);
  yield entry('_/Workspaces', 'directory', null);
  for (let w = 1; w <= shape.workspaces; w += 1) {
    const root = workspaceRoot(w);
    yield entry(root, 'directory', null);
    for (const folder of ['', ...plan.folders]) {
      const level = folder === '' ? 0 : folder.split('/').length;
      const base = folder === '' ? root : `${root}/${folder}`;
      const subfolders = level < shape.depth ? shape.subfoldersPerFolder : 0;
      for (let i = 1; i <= subfolders; i += 1) yield entry(`${base}/${FOLDER_NAME(i)}`, 'directory', null);
      for (let i = 1; i <= shape.entriesPerFolder - subfolders; i += 1) yield entry(`${base}/${FILE_NAME(i)}`, 'file', 1024 * i);
    }
  }
  for (const size of folderSizes) {
    const base = `${workspaceRoot(1)}/${bigFolder(size)}`;
    yield entry(base, 'directory', null);
    for (let i = 1; i <= size; i += 1) yield entry(`${base}/${FILE_NAME(i, 6)}`, 'file', 1024);
  }
}

function* range(first: number, last: number, make: (i: number) => Row): Generator<Row> {
  for (let i = first; i <= last; i += 1) yield make(i);
}
