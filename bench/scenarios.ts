import type { RequestSpec } from './load.js';
import { bigFolder } from './seed/grant-plan.js';
import { BENCH_PASSWORD, type SeededSite } from './seed/seed-site.js';

const API = '/api/rest/v1';

/** A request to load, and what its answer must look like for the figures to mean anything. */
export interface Scenario {
  name: string;
  request: RequestSpec;
  /** What is wrong with the probe's answer, or undefined when it is as expected. */
  check(status: number, body: any): string | undefined;
  /** The folder endpoints may not exist yet in this tree. */
  needsFolders?: boolean;
}

const expectStatus = (expected: number, extra?: (body: any) => string | undefined) => (status: number, body: any) =>
  status !== expected ? `answered ${status} ${JSON.stringify(body).slice(0, 200)}` : extra?.(body);

const key = (secret: string) => ({ 'X-ServiceAPI-Key': secret });
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export function folderListing(site: SeededSite, credential: 'key' | 'session'): Scenario {
  const headers = credential === 'key' ? key(site.member.key) : { 'X-ServiceAPI-Auth': site.member.session };
  return {
    name: `GET /folders/<path> (${site.plan.shape.entriesPerFolder} entries, ${credential === 'key' ? 'API key' : 'session'})`,
    request: { method: 'GET', path: `${API}/folders/${encodePath(site.plan.listedFolder)}`, headers },
    check: expectStatus(200, (body) => (Array.isArray(body) && body.length === site.plan.shape.entriesPerFolder ? undefined : `listed ${JSON.stringify(body).slice(0, 200)}`)),
    needsFolders: true,
  };
}

export function bigFolderPage(site: SeededSite, size: number, perPage: number): Scenario {
  return {
    name: `GET /folders/<path>?per_page=${perPage} (a page of a large folder)`,
    request: { method: 'GET', path: `${API}/folders/${bigFolder(size)}?per_page=${perPage}`, headers: key(site.member.key) },
    check: expectStatus(200, (body) => (Array.isArray(body) && body.length === Math.min(size, perPage) ? undefined : `listed ${JSON.stringify(body).slice(0, 200)}`)),
    needsFolders: true,
  };
}

/**
 * The member lists users with its key: authentication, then one authority check (is the caller an
 * administrator of its Workspace, from its groups and the grants on the Workspace root), then
 * itself as the only user it may see. The cheapest authenticated request that decides something.
 */
export function usersAsMember(site: SeededSite): Scenario {
  return {
    name: 'GET /users (API key: authentication + one authority check)',
    request: { method: 'GET', path: `${API}/users`, headers: key(site.member.key) },
    check: expectStatus(200, (body) => (Array.isArray(body) && body.length === 1 ? undefined : `listed ${JSON.stringify(body).slice(0, 200)}`)),
  };
}

/**
 * A Workspace Administrator lists the member's grants, its groups' included: the whole first page
 * (up to 1,000), or a page of `perPage` (the growth series, whose member has more grants at each step).
 */
export function permissionsOfMember(site: SeededSite, perPage?: number): Scenario {
  return {
    name: `GET /permissions?user_id=&include_groups=true${perPage === undefined ? '' : `&per_page=${perPage}`}`,
    request: {
      method: 'GET',
      path: `${API}/permissions?user_id=${site.member.id}&include_groups=true${perPage === undefined ? '' : `&per_page=${perPage}`}`,
      headers: key(site.workspaceAdmin.key),
    },
    check: expectStatus(200, (body) => {
      if (!Array.isArray(body) || body.length === 0) return 'listed no grant';
      return perPage === undefined || body.length === perPage ? undefined : `listed ${body.length} grants, not a page of ${perPage}`;
    }),
  };
}

/** A Workspace Administrator asks why the member may list the measured folder. */
export function explainMember(site: SeededSite): Scenario {
  return {
    name: 'GET /permissions/explain',
    request: {
      method: 'GET',
      path: `${API}/permissions/explain?path=${encodeURIComponent(site.plan.listedFolder)}&user_id=${site.member.id}`,
      headers: key(site.workspaceAdmin.key),
    },
    check: expectStatus(200, (body) => (Array.isArray(body?.capabilities) && body.capabilities.includes('list') ? undefined : `explained ${JSON.stringify(body).slice(0, 300)}`)),
  };
}

/**
 * The cost of recording users' activity times (identity/user-activity.ts): GET /users with the
 * seeded users' keys in turn, each request another user's. `writing`: each user's first request
 * in the minute writes its `last_api_use_at` (on a fresh site, every request until all have had
 * one); `recorded`: the same requests right after, when every time is under a minute old and
 * nothing is written. Their ratio is the writes' cost when that many users are active at once.
 */
export function usersByEveryUser(site: SeededSite, phase: 'writing' | 'recorded'): Scenario {
  const [first] = site.activityKeys;
  return {
    name: `Activity: GET /users, ${site.activityKeys.length.toLocaleString('en')} users' keys in turn (${phase === 'writing' ? 'each user\'s first request writes its activity' : 'all recorded this minute: no writes'})`,
    request: { method: 'GET', path: `${API}/users`, headers: key(first ?? site.member.key), rotatingHeaders: site.activityKeys.map(key) },
    check: expectStatus(200, (body) => (Array.isArray(body) ? undefined : `listed ${JSON.stringify(body).slice(0, 200)}`)),
  };
}

export function login(site: SeededSite): Scenario {
  return {
    name: 'POST /sessions',
    request: {
      method: 'POST',
      path: `${API}/sessions`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: site.member.username, password: BENCH_PASSWORD }),
    },
    check: expectStatus(201),
  };
}

export const HELLO: Scenario = {
  name: 'baseline: bare Fastify hello',
  request: { method: 'GET', path: '/', headers: {} },
  check: expectStatus(200),
};

/** The folder endpoints exist when the Workspace root lists (it always does, possibly empty). */
export function foldersProbe(site: SeededSite): RequestSpec {
  return { method: 'GET', path: `${API}/folders/`, headers: key(site.member.key) };
}
