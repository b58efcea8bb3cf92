import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { davErrors } from '../dav-error.js';

/** An XML element with its namespace resolved: `ns` is the namespace URI ('' for none). */
export interface XmlElement {
  readonly ns: string;
  readonly name: string;
  /** Attributes other than namespace declarations, by `{ns}name` (plain `name` without a namespace). */
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
}

export type XmlNode = XmlElement | string;

export const DAV_NS = 'DAV:';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: false,
  // Entities are decoded here (decodeText), only the five of XML and character references: a
  // document with a DOCTYPE never reaches the parser, so no other entity can exist.
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
});

/**
 * A request body's XML document. A DOCTYPE (and so any entity declaration) is refused outright:
 * no external entity is fetched, no entity expands (billion laughs). Malformed XML, an unbound
 * prefix or an unknown entity is 400.
 */
export function parseXml(text: string): XmlElement {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) throw davErrors.badRequest('XML with a DOCTYPE or entity declarations is not accepted.');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw davErrors.badRequest(`The XML body is not well-formed: ${valid.err.msg} (line ${valid.err.line}).`);
  let nodes: RawNode[];
  try {
    nodes = parser.parse(text) as RawNode[];
  } catch {
    throw davErrors.badRequest('The XML body is not well-formed.');
  }
  const roots = nodes.map((node) => resolve(node, new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]))).filter((node): node is XmlElement => typeof node !== 'string');
  if (roots.length !== 1) throw davErrors.badRequest('The XML body must have exactly one root element.');
  return roots[0] as XmlElement;
}

type RawNode = Record<string, unknown>;

function resolve(node: RawNode, inherited: ReadonlyMap<string, string>): XmlNode | undefined {
  if ('#text' in node) return decodeText(String(node['#text']));
  if ('#cdata' in node) return (node['#cdata'] as RawNode[]).map((part) => String(part['#text'] ?? '')).join('');
  const tag = Object.keys(node).find((key) => key !== ':@');
  if (tag === undefined || tag.startsWith('?') || tag === '#comment') return undefined;
  const rawAttrs = (node[':@'] ?? {}) as Record<string, string>;
  const scope = new Map(inherited);
  for (const [key, value] of Object.entries(rawAttrs)) {
    if (key === 'xmlns') scope.set('', decodeText(value));
    else if (key.startsWith('xmlns:')) {
      // Namespaces in XML 1.0 (section 3): a prefix may not be bound to the empty name.
      if (value === '') throw davErrors.badRequest(`The XML prefix "${key.slice(6)}" is bound to an empty namespace.`);
      scope.set(key.slice(6), decodeText(value));
    }
  }
  const { ns, name } = qualified(tag, scope, true);
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(rawAttrs)) {
    if (key === 'xmlns' || key.startsWith('xmlns:')) continue;
    const attr = qualified(key, scope, false);
    attrs[attr.ns === '' ? attr.name : `{${attr.ns}}${attr.name}`] = decodeText(value);
  }
  const children = ((node[tag] ?? []) as RawNode[]).map((child) => resolve(child, scope)).filter((child): child is XmlNode => child !== undefined);
  return { ns, name, attrs, children };
}

function qualified(raw: string, scope: ReadonlyMap<string, string>, element: boolean): { ns: string; name: string } {
  const colon = raw.indexOf(':');
  if (colon === -1) return { ns: element ? scope.get('') ?? '' : '', name: raw };
  const prefix = raw.slice(0, colon);
  const ns = scope.get(prefix);
  if (ns === undefined) throw davErrors.badRequest(`The XML prefix "${prefix}" is not bound to a namespace.`);
  return { ns, name: raw.slice(colon + 1) };
}

const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The five XML entities and character references; anything else is an undeclared entity (400). */
function decodeText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (_all, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isInteger(code) || code < 1 || code > 0x10ffff) throw davErrors.badRequest(`Invalid character reference &${ref};.`);
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref];
    if (named === undefined) throw davErrors.badRequest(`Undeclared entity &${ref};.`);
    return named;
  });
}

/** The child elements of an element (text between them is layout). */
export function childElements(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== 'string');
}

export function isDav(element: XmlElement, name: string): boolean {
  return element.ns === DAV_NS && element.name === name;
}

/** The text content of an element, its descendants' included. */
export function textOf(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('');
}
