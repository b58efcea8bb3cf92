import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an Authorization header carries the metrics token. Both sides are hashed first so the
 * comparison takes the same time whatever the length or content of what was sent.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(token)) && presented !== '';
}
