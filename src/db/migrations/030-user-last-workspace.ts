import type { Kysely, Migration } from 'kysely';

/**
 * The Workspace a user last chose to work in (docs/workspaces-users-groups.md#the-workspace-one-works-in),
 * so that the console opens there in a new tab or another browser. Null until they choose one; no
 * foreign key, because a Workspace deleted since is simply no longer offered (the read checks it).
 */
export function userLastWorkspace(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('last_workspace_id', 'integer').execute();
    },
  };
}
