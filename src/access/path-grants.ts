import { decide, type Decision, type Grant, type Subject, type Target } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { grantsThatCanMatch, type GrantHolder } from '../repositories/grants/index.js';

/** A path key and every ancestor up to the site root (''): the paths whose grants can cover it. */
export function selfAndAncestorKeys(pathKey: string): string[] {
  const keys = [''];
  if (pathKey === '') return keys;
  const segments = pathKey.split('/');
  for (let i = 1; i <= segments.length; i += 1) keys.push(segments.slice(0, i).join('/'));
  return keys;
}

/**
 * The subject's grants on a path and on every ancestor of it that can match the subject: all that
 * a decision on the path, or on any of its ancestors, depends on. Read from current data (cached
 * only until it changes). A Site Administrator has everything everywhere: no grant can add to
 * that, so none are loaded.
 */
export async function grantsOverPath(db: Db, subject: Subject, pathKey: string): Promise<readonly Grant[]> {
  if (subject.siteAdmin) return [];
  return grantsThatCanMatch(db, grantHolderOf(subject), selfAndAncestorKeys(pathKey));
}

/**
 * The subject's grants on these exact paths (children of a listed folder, say), with the same
 * shortcut: a Site Administrator needs none.
 */
export async function grantsOnPathsFor(db: Db, subject: Subject, pathKeys: readonly string[]): Promise<readonly Grant[]> {
  if (subject.siteAdmin) return [];
  return grantsThatCanMatch(db, grantHolderOf(subject), [...pathKeys]);
}

/** The engine's decision for the subject on a path, and the grants it was made from. */
export async function decideOnPath(db: Db, subject: Subject, target: Target): Promise<{ decision: Decision; grants: readonly Grant[] }> {
  const grants = await grantsOverPath(db, subject, target.pathKey);
  return { decision: decide(subject, target, grants), grants };
}

/** Who the subject is as far as its grants go: the repositories read a Partner user's Partner's grants only. */
export function grantHolderOf(subject: Subject): GrantHolder {
  return { userId: subject.userId, groupIds: [...subject.groupIds], partnerId: subject.partnerId };
}
