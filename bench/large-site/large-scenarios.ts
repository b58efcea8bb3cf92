import type { Scenario } from '../scenarios.js';
import type { LargeSite } from './large-seed.js';

const API = '/api/rest/v1';
const key = (secret: string) => ({ 'X-ServiceAPI-Key': secret });
const expectStatus = (expected: number, extra?: (body: any) => string | undefined) => (status: number, body: any) =>
  status !== expected ? `answered ${status} ${JSON.stringify(body).slice(0, 200)}` : extra?.(body);
const expectCount = (count: number) => expectStatus(200, (body) => (Array.isArray(body) && body.length === count ? undefined : `listed ${Array.isArray(body) ? `${body.length} rows, not ${count}` : JSON.stringify(body).slice(0, 200)}`));
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** The scenarios' names, the same on both sites, as the report pairs them. */
export const LARGE_SCENARIOS = {
  listing: 'GET /folders/<path> (member of several groups, a folder 8 levels deep, API key)',
  explain: 'GET /permissions/explain (the member on that folder)',
  grants: 'GET /permissions?user_id=&include_groups=true (the member, a page)',
  users: 'GET /users (Workspace Administrator, a page)',
  historyFirst: 'GET /history (Workspace Administrator, first page)',
  historyNext: 'GET /history (Workspace Administrator, next page by cursor)',
  search: 'GET /folders/?search=&search_all=true (Workspace Administrator, a page)',
} as const;

/**
 * The hot requests on a large organisation's site, each asked in Workspace 1 and each with the
 * answer it must give (status, and rows counted: a full page, or the seeded files), the same
 * requests on either site. The History's next page needs the first page's cursor, asked of the
 * running server (`nextHistoryCursor`).
 */
export function largeScenarios(site: LargeSite, historyCursor: string): Scenario[] {
  const page = site.shape.pageSize;
  const admin = key(site.workspaceAdmin.key);
  return [
    {
      name: LARGE_SCENARIOS.listing,
      request: { method: 'GET', path: `${API}/folders/${encodePath(site.listedFolder)}`, headers: key(site.member.key) },
      check: expectCount(site.shape.filesPerFolder),
    },
    {
      name: LARGE_SCENARIOS.explain,
      request: { method: 'GET', path: `${API}/permissions/explain?path=${encodeURIComponent(site.listedFolder)}&user_id=${site.member.id}`, headers: admin },
      check: expectStatus(200, (body) => (Array.isArray(body?.capabilities) && body.capabilities.includes('list') ? undefined : `explained ${JSON.stringify(body).slice(0, 300)}`)),
    },
    {
      name: LARGE_SCENARIOS.grants,
      request: { method: 'GET', path: `${API}/permissions?user_id=${site.member.id}&include_groups=true&per_page=${page}`, headers: admin },
      check: expectCount(page),
    },
    { name: LARGE_SCENARIOS.users, request: { method: 'GET', path: `${API}/users?per_page=${page}`, headers: admin }, check: expectCount(page) },
    { name: LARGE_SCENARIOS.historyFirst, request: { method: 'GET', path: `${API}/history?per_page=${page}`, headers: admin }, check: expectCount(page) },
    {
      name: LARGE_SCENARIOS.historyNext,
      request: { method: 'GET', path: `${API}/history?per_page=${page}&cursor=${encodeURIComponent(historyCursor)}`, headers: admin },
      check: expectCount(page),
    },
    {
      name: LARGE_SCENARIOS.search,
      request: { method: 'GET', path: `${API}/folders/?search=${encodeURIComponent(site.search.text)}&search_all=true&per_page=${page}`, headers: admin },
      check: expectCount(Math.min(page, site.search.matches)),
    },
  ];
}

/** The cursor of the History's second page as the Workspace Administrator reads it. */
export async function nextHistoryCursor(baseUrl: string, site: LargeSite): Promise<string> {
  const response = await fetch(`${baseUrl}${API}/history?per_page=${site.shape.pageSize}`, { headers: key(site.workspaceAdmin.key) });
  await response.arrayBuffer();
  const cursor = response.headers.get('x-files-cursor-next');
  if (response.status !== 200 || cursor === null) throw new Error(`GET /history answered ${response.status} with no next cursor`);
  return cursor;
}
