import type { DavLock } from '../repositories/dav-locks.js';

/** Whether `lock` covers the resource at `pathKey`: rooted there, or above it with depth infinity (RFC 4918 6.1). */
export function covers(lock: DavLock, pathKey: string): boolean {
  if (lock.pathKey === pathKey) return true;
  if (lock.depth !== 'infinity') return false;
  return lock.pathKey === '' ? pathKey !== '' : pathKey.startsWith(`${lock.pathKey}/`);
}
