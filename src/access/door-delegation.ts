import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { anyGroupAllows, type Group } from '../repositories/groups.js';
import type { UserProfile } from '../repositories/users.js';
import type { Caller } from './caller.js';

/** The protocol flags of users and groups, as their profiles name them. */
export const DOOR_FIELDS = ['sftpPermission', 'davPermission', 'restapiPermission', 'ftpPermission'] as const;
export type DoorField = (typeof DOOR_FIELDS)[number];

const FLAG_NAME = { sftpPermission: 'sftp_permission', davPermission: 'dav_permission', restapiPermission: 'restapi_permission', ftpPermission: 'ftp_permission' } as const;

/**
 * The protocols the caller may not use itself: its own flag is off and no group of its own
 * Workspace opens it (the rule door-admission.ts admits by). Delegation is monotone (contract 5.3),
 * so these are the doors it may open for nobody, itself included. A Site Administrator (or a
 * site-wide key) holds every door: no setting narrows it, and it could reopen its own.
 */
export async function doorsClosedTo(db: Db, caller: Caller): Promise<DoorField[]> {
  const user = caller.user;
  if (caller.siteAdmin || user === null) return [];
  const closed: DoorField[] = [];
  for (const field of DOOR_FIELDS) {
    if (!user.profile[field] && !(await anyGroupAllows(db, user, FLAG_NAME[field]))) closed.push(field);
  }
  return closed;
}

/**
 * Turning protocol flags on, on a user or on a group (whose flag opens the door for its members):
 * only for protocols the caller may use itself. Answers
 * `not-authorized/insufficient-permission-for-params` naming the flag otherwise.
 */
export async function assertOpensOnlyOwnDoors(db: Db, caller: Caller, wanted: Partial<Record<DoorField, boolean>>): Promise<void> {
  const opening = DOOR_FIELDS.filter((field) => wanted[field] === true);
  if (opening.length === 0) return;
  const closed = await doorsClosedTo(db, caller);
  const beyond = opening.filter((field) => closed.includes(field));
  if (beyond.length > 0) throw doorsBeyondCaller(beyond);
}

/**
 * The protocol flags of a user the caller creates, where the request sets none: open, as Files.com
 * creates users, except those the caller may not use itself, which start closed (a new account
 * must not hold a door its creator does not).
 */
export async function newUserDoorDefaults(db: Db, caller: Caller): Promise<Partial<Record<DoorField, false>>> {
  return Object.fromEntries((await doorsClosedTo(db, caller)).map((field) => [field, false]));
}

/**
 * A user joining a group at the hands of an administrator: a group of the user's own Workspace
 * opens its flagged doors to the user (door-admission.ts), so the caller must hold each door the
 * group would newly open. A Group Admin adding a member is not asked this: it hands on the group's
 * existing access, as the product document's rule 8 says (contract 5.3).
 * `user.id` is null for a user being created, which belongs to no group yet.
 */
export async function assertJoiningOpensOnlyOwnDoors(
  db: Db,
  caller: Caller,
  group: Pick<Group, 'workspaceId' | 'profile'>,
  user: { id: number | null; workspaceId: number; profile: Pick<UserProfile, DoorField> },
): Promise<void> {
  if (group.workspaceId !== user.workspaceId) return;
  const opened = DOOR_FIELDS.filter((field) => group.profile[field] && !user.profile[field]);
  if (opened.length === 0) return;
  const closed = await doorsClosedTo(db, caller);
  const beyond: DoorField[] = [];
  for (const field of opened) {
    if (!closed.includes(field)) continue;
    const alreadyOpen = user.id !== null && (await anyGroupAllows(db, { id: user.id, workspaceId: user.workspaceId }, FLAG_NAME[field]));
    if (!alreadyOpen) beyond.push(field);
  }
  if (beyond.length > 0) throw doorsBeyondCaller(beyond, 'joining this group');
}

/**
 * A key or a password the caller makes for another user lets whoever holds it sign in as that
 * user, at every door the user's settings open (an API key is a password at SFTP and WebDAV too).
 * So the caller may make one only for a user who may use no protocol closed to the caller itself;
 * otherwise it would open that door for itself.
 */
export async function assertMayActAs(db: Db, caller: Caller, owner: { id: number; workspaceId: number; profile: Pick<UserProfile, DoorField> }, what: string): Promise<void> {
  if (caller.user?.id === owner.id) return;
  const beyond: DoorField[] = [];
  for (const field of await doorsClosedTo(db, caller)) {
    if (owner.profile[field] || (await anyGroupAllows(db, owner, FLAG_NAME[field]))) beyond.push(field);
  }
  if (beyond.length > 0) {
    const names = beyond.map((field) => FLAG_NAME[field]).join(', ');
    throw errors.insufficientPermissionForParams(`You may not ${what} for a user who may use ${names}: that protocol is closed to you.`);
  }
}

function doorsBeyondCaller(fields: readonly DoorField[], through?: string): Error {
  const names = fields.map((field) => FLAG_NAME[field]).join(', ');
  const how = through === undefined ? `turn on ${names}` : `open ${names} to a user by ${through}`;
  return errors.insufficientPermissionForParams(`You may not ${how}: that protocol is closed to you.`);
}
