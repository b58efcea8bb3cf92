import type { FileEntry } from '../../files/index.js';
import { escapeText } from '../xml/multistatus.js';
import { contentTypeOf } from '../../lib/media-types.js';
import { entityTagOf } from './entity-tag.js';

/**
 * The live properties (RFC 4918 15): computed from the entry, never stored, protected from
 * PROPPATCH. Every one is in the DAV: namespace.
 */
export const LIVE_PROPERTIES = [
  'creationdate', 'displayname', 'getcontentlength', 'getcontenttype', 'getetag', 'getlastmodified', 'resourcetype', 'supportedlock', 'lockdiscovery',
] as const;

export type LiveProperty = (typeof LIVE_PROPERTIES)[number];

export function isLiveProperty(ns: string, name: string): name is LiveProperty {
  return ns === 'DAV:' && (LIVE_PROPERTIES as readonly string[]).includes(name);
}

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

/**
 * A live property of an entry as an element, or undefined where it does not apply (a folder has
 * no length or media type). `lockXml` is the inner XML of lockdiscovery (locks/).
 */
export function liveProperty(entry: FileEntry, name: LiveProperty, lockXml: string): string | undefined {
  const folder = entry.type === 'directory';
  switch (name) {
    case 'creationdate':
      return `<D:creationdate>${new Date(entry.createdAt).toISOString()}</D:creationdate>`;
    case 'displayname':
      return `<D:displayname>${escapeText(entry.name)}</D:displayname>`;
    case 'getcontentlength':
      return folder ? undefined : `<D:getcontentlength>${entry.size ?? 0}</D:getcontentlength>`;
    case 'getcontenttype':
      return folder ? undefined : `<D:getcontenttype>${escapeText(contentTypeOf(entry.name))}</D:getcontenttype>`;
    case 'getetag':
      return `<D:getetag>${escapeText(entityTagOf(entry))}</D:getetag>`;
    case 'getlastmodified':
      return `<D:getlastmodified>${new Date(entry.modifiedAt).toUTCString()}</D:getlastmodified>`;
    case 'resourcetype':
      return folder ? '<D:resourcetype><D:collection/></D:resourcetype>' : '<D:resourcetype/>';
    case 'supportedlock':
      return `<D:supportedlock>${SUPPORTED_LOCK}</D:supportedlock>`;
    case 'lockdiscovery':
      return lockXml === '' ? '<D:lockdiscovery/>' : `<D:lockdiscovery>${lockXml}</D:lockdiscovery>`;
  }
}
