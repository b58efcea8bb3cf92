import type { DavLock, FileSession } from '../../files/index.js';
import { hrefOf } from '../dav-request.js';
import { escapeXml } from '../xml/multistatus.js';

/** The href of a lock's root as the caller's session shows it (its root when the lock lies above it). */
export function lockRootHref(session: FileSession, lock: DavLock): string {
  const shown = session.shownPath(lock.path);
  return shown === null ? hrefOf('', true) : hrefOf(shown, lock.collection);
}

/** One DAV:activelock (RFC 4918 14.1): what a lockdiscovery property and a LOCK answer list. */
export function activeLockXml(lock: DavLock, session: FileSession, now: number): string {
  const seconds = Math.max(0, Math.ceil((lock.expiresAt - now) / 1000));
  const owner = lock.ownerXml === null ? '' : `<D:owner>${lock.ownerXml}</D:owner>`;
  return '<D:activelock>'
    + '<D:locktype><D:write/></D:locktype>'
    + `<D:lockscope><D:${lock.scope}/></D:lockscope>`
    + `<D:depth>${lock.depth === 'infinity' ? 'infinity' : '0'}</D:depth>`
    + owner
    + `<D:timeout>Second-${seconds}</D:timeout>`
    + `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>`
    + `<D:lockroot><D:href>${escapeXml(lockRootHref(session, lock))}</D:href></D:lockroot>`
    + '</D:activelock>';
}
