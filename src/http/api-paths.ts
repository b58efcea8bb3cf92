export const API_ROOT = '/api/rest/v1';

/** Atrium's own API that needs no credential: a share link's visitors (docs/sharing.md#visiting-a-link). */
export const PUBLIC_API_ROOT = '/api/public';

// Under these, `.json` can be part of a file or folder name, so it is never stripped.
const PATH_RESOURCES = [`${API_ROOT}/folders`, `${API_ROOT}/files`, `${API_ROOT}/file_actions`];

/**
 * Every non-path resource also answers with a `.json` suffix (`/users.json`, `/users/5.json`):
 * the suffix is removed before routing.
 */
export function stripJsonSuffix(url: string): string {
  if (!url.startsWith(API_ROOT)) return url;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (!path.endsWith('.json')) return url;
  if (PATH_RESOURCES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return url;
  return path.slice(0, -'.json'.length) + (queryStart === -1 ? '' : url.slice(queryStart));
}
