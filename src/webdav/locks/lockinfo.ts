import { davErrors } from '../dav-error.js';
import { escapeXml } from '../xml/multistatus.js';
import { childElements, isDav, parseXml, type XmlElement } from '../xml/parse.js';
import { serializeElement } from '../xml/serialize.js';

// The body of a LOCK request (RFC 4918 14.11, DAV:lockinfo): scope, type and the client's owner
// element, parsed with the shared XML reader (namespaces resolved, DOCTYPE refused, malformed 400).

export interface LockInfo {
  scope: 'exclusive' | 'shared';
  /** The content of <D:owner>, each element self-contained (its namespaces declared on it), to answer back as given; null without one. */
  ownerXml: string | null;
}

export function parseLockInfo(body: string): LockInfo {
  const root = parseXml(body);
  if (!isDav(root, 'lockinfo')) throw davErrors.badRequest('A LOCK body is a DAV:lockinfo element.');
  const child = (name: string): XmlElement | undefined => childElements(root).find((element) => isDav(element, name));
  const scope = childElements(child('lockscope') ?? root).find((element) => isDav(element, 'exclusive') || isDav(element, 'shared'));
  if (child('lockscope') === undefined || scope === undefined) throw davErrors.badRequest('DAV:lockscope must hold DAV:exclusive or DAV:shared.');
  const type = child('locktype');
  if (type === undefined || !childElements(type).some((element) => isDav(element, 'write'))) {
    throw davErrors.badRequest('DAV:locktype must be DAV:write, the only lock type.');
  }
  const owner = child('owner');
  const ownerXml = owner === undefined ? null : owner.children.map((node) => (typeof node === 'string' ? escapeXml(node) : serializeElement(node))).join('');
  return { scope: scope.name === 'shared' ? 'shared' : 'exclusive', ownerXml };
}
