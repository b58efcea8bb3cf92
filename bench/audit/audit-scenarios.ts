import type { Scenario } from '../scenarios.js';
import type { SeededSite } from '../seed/seed-site.js';
import type { AuditSite } from './audit-seed.js';

const API = '/api/rest/v1';
const key = (secret: string) => ({ 'X-ServiceAPI-Key': secret });
const json = { 'content-type': 'application/json' };
const expectStatus = (expected: number, extra?: (body: any) => string | undefined) => (status: number, body: any) =>
  status !== expected ? `answered ${status} ${JSON.stringify(body).slice(0, 200)}` : extra?.(body);

/**
 * A Workspace Administrator grants a user `readonly` on a folder, again and again: each request
 * creates the grant, replaces the previous one (contract 5.3), computes the change's effect on
 * access and records it in History.
 */
export function grantCreation(site: SeededSite): Scenario {
  return {
    name: 'POST /permissions (create, replace, review, record)',
    request: {
      method: 'POST',
      path: `${API}/permissions`,
      headers: { ...key(site.workspaceAdmin.key), ...json },
      body: JSON.stringify({ path: 'dir-2/dir-1', user_id: site.plan.userId(1, 40), permission: 'readonly' }),
    },
    check: expectStatus(201),
  };
}

/** A Workspace Administrator uploads 1 KiB over the same file, again and again (PUT /files, recorded). */
export function smallUpload(site: SeededSite): Scenario {
  return {
    name: 'PUT /files/<path> (1 KiB, replacing, recorded)',
    request: { method: 'PUT', path: `${API}/files/bench-upload.bin`, headers: { ...key(site.workspaceAdmin.key), 'content-type': 'application/octet-stream' }, body: 'x'.repeat(1024) },
    check: expectStatus(201),
  };
}

/** Who can reach the measured folder, asked by its Workspace's administrator. */
export function reachOfFolder(site: SeededSite): Scenario {
  return {
    name: 'GET /permissions/reach (the measured folder)',
    request: { method: 'GET', path: `${API}/permissions/reach?path=${encodeURIComponent(site.plan.listedFolder)}&per_page=1000`, headers: key(site.workspaceAdmin.key) },
    check: expectStatus(200, (body) => (Array.isArray(body) && body.length > 0 ? undefined : `reached ${JSON.stringify(body).slice(0, 200)}`)),
  };
}

/** A dry run of deleting the root `admin` grant of a group of every user of a Workspace. */
export function dryRunOfRootGrant(site: SeededSite, audit: AuditSite): Scenario {
  return {
    name: `DELETE /permissions/<root admin grant of ${audit.everyoneMembers} members>?dry_run=true`,
    request: { method: 'DELETE', path: `${API}/permissions/${audit.everyoneRootGrantId}?dry_run=true`, headers: key(site.siteKey) },
    // Members whose own grants already give what the root grant gives are not listed (docs/access-review.md), so
    // the difference may hold fewer rows than members; one at least shows the grant was really weighed.
    check: expectStatus(200, (body) => (Array.isArray(body?.access_difference) && body.access_difference.length > 0
      ? undefined : `answered ${JSON.stringify(body).slice(0, 200)}`)),
  };
}

/** A page of the whole site's History, newest first, as a Site Administrator reads it. */
export function historyPage(site: SeededSite): Scenario {
  return {
    name: 'GET /history?per_page=100 (Site Administrator)',
    request: { method: 'GET', path: `${API}/history?per_page=100`, headers: key(site.siteKey) },
    check: expectStatus(200, (body) => (Array.isArray(body) && body.length === 100 ? undefined : `listed ${JSON.stringify(body).slice(0, 200)}`)),
  };
}

/** The same for a Workspace Administrator, who sees its Workspace's records only. */
export function workspaceHistoryPage(site: SeededSite): Scenario {
  return {
    name: 'GET /history?per_page=100 (Workspace Administrator)',
    request: { method: 'GET', path: `${API}/history?per_page=100`, headers: key(site.workspaceAdmin.key) },
    check: expectStatus(200, (body) => (Array.isArray(body) && body.length === 100 ? undefined : `listed ${JSON.stringify(body).slice(0, 200)}`)),
  };
}
