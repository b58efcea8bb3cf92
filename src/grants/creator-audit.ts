import { assertMayManageGrantsOn, callerFromPassword, mayNameGrantee } from '../access/index.js';
import type { Db } from '../db/database.js';
import { grantsAfter, type GrantRecord } from '../repositories/grants/index.js';
import { historyPage } from '../repositories/history-query.js';
import { findUserById } from '../repositories/users.js';

const PAGE = 500;

/** Who created a grant, as its `permission_create` record in History says. */
export interface GrantCreator {
  historyId: number;
  at: number;
  /** Null when a site-wide key or the administration command created it. */
  userId: number | null;
  username: string | null;
  apiKeyId: number | null;
  interface: string;
}

export type CreatorFinding =
  /** Its creator could not create it today: its own authority does not cover what the grant reaches. */
  | 'beyond-creator-authority'
  /** Its creator's account no longer exists: nobody can say. */
  | 'creator-deleted'
  /** History holds no record of its creation (pruned by retention, or made before History). */
  | 'no-creation-record';

export interface AuditedGrant {
  grant: GrantRecord;
  creator: GrantCreator | null;
  finding: CreatorFinding;
}

/**
 * The grants of the site that their own creator could not create today, by the rule that a
 * delegate's authority must cover everything a grant reaches (contract 5.3). Before that rule a
 * Folder Admin holding a non-recursive admin grant could create recursive grants on its folder,
 * a Workspace Administrator's root grant among them: such grants show here, for an administrator
 * to review and delete. The creator is judged with its user's own authority now (the most any of
 * its credentials could hold); a grant whose creator lost authority since then shows too, which is
 * worth a look for the same reason. Grants whose creator cannot be known are listed as such.
 */
export async function grantsBeyondTheirCreators(db: Db): Promise<AuditedGrant[]> {
  const creators = await creationRecords(db);
  const found: AuditedGrant[] = [];
  for (let afterId = 0; ;) {
    const page = await grantsAfter(db, afterId, PAGE);
    if (page.length === 0) return found;
    afterId = page[page.length - 1]!.id;
    for (const grant of page) {
      const creator = creators.get(grant.id) ?? null;
      const finding = await judge(db, grant, creator);
      if (finding !== undefined) found.push({ grant, creator, finding });
    }
  }
}

async function judge(db: Db, grant: GrantRecord, creator: GrantCreator | null): Promise<CreatorFinding | undefined> {
  if (creator === null) return 'no-creation-record';
  // A site-wide key, or the host's own administration command: the whole site's authority.
  if (creator.userId === null) return undefined;
  const user = await findUserById(db, creator.userId);
  if (user === undefined) return 'creator-deleted';
  const caller = callerFromPassword(user);
  try {
    await assertMayManageGrantsOn(db, caller, { site: { path: grant.path, key: grant.pathKey, workspaceId: grant.workspaceId }, recursive: grant.recursive });
  } catch {
    return 'beyond-creator-authority';
  }
  return (await mayNameGrantee(db, caller, grant)) ? undefined : 'beyond-creator-authority';
}

/** Grant id → its creation record, from every `permission_create` record History still holds. */
async function creationRecords(db: Db): Promise<Map<number, GrantCreator>> {
  const creators = new Map<number, GrantCreator>();
  for (let afterId = 0; ;) {
    const rows = await historyPage(db, { parts: [{ kind: 'everything' }], filters: { actions: ['permission_create'] }, descending: false, after: afterId, limit: PAGE });
    if (rows.length === 0) return creators;
    afterId = rows[rows.length - 1]!.id;
    for (const row of rows) {
      const grantId = grantIdOf(row.targets);
      if (grantId === undefined) continue;
      creators.set(grantId, { historyId: row.id, at: row.created_at, userId: row.user_id, username: row.username, apiKeyId: row.api_key_id, interface: row.interface });
    }
  }
}

function grantIdOf(targets: string | null): number | undefined {
  if (targets === null) return undefined;
  try {
    const id = (JSON.parse(targets) as { id?: unknown }).id;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
