import { escapeText, escapeXml } from './multistatus.js';
import type { XmlElement } from './parse.js';

/**
 * An element as a self-contained XML fragment: every namespace it and its descendants use is
 * declared on it with a prefix of its own (never a default namespace, so an unprefixed name is in
 * no namespace wherever the fragment is put). This is how a dead property is stored and given back.
 */
export function serializeElement(element: XmlElement): string {
  const prefixes = new Map<string, string>();
  collectNamespaces(element, prefixes);
  const declarations = [...prefixes].map(([ns, prefix]) => ` xmlns:${prefix}="${escapeXml(ns)}"`).join('');
  return write(element, prefixes, declarations);
}

/** An empty element of the name, self-contained: for propname answers and missing properties. */
export function emptyElement(ns: string, name: string): string {
  if (ns === '') return `<${name}/>`;
  if (ns === 'DAV:') return `<D:${name}/>`;
  return `<P:${name} xmlns:P="${escapeXml(ns)}"/>`;
}

function collectNamespaces(element: XmlElement, prefixes: Map<string, string>): void {
  const add = (ns: string) => {
    if (ns !== '' && !prefixes.has(ns)) prefixes.set(ns, `ns${prefixes.size}`);
  };
  add(element.ns);
  for (const key of Object.keys(element.attrs)) if (key.startsWith('{')) add(key.slice(1, key.indexOf('}')));
  for (const child of element.children) if (typeof child !== 'string') collectNamespaces(child, prefixes);
}

function write(element: XmlElement, prefixes: ReadonlyMap<string, string>, declarations: string): string {
  const tag = element.ns === '' ? element.name : `${prefixes.get(element.ns) as string}:${element.name}`;
  const attrs = Object.entries(element.attrs).map(([key, value]) => {
    if (!key.startsWith('{')) return ` ${key}="${escapeXml(value)}"`;
    const close = key.indexOf('}');
    return ` ${prefixes.get(key.slice(1, close)) as string}:${key.slice(close + 1)}="${escapeXml(value)}"`;
  }).join('');
  if (element.children.length === 0) return `<${tag}${declarations}${attrs}/>`;
  const inner = element.children.map((child) => (typeof child === 'string' ? escapeText(child) : write(child, prefixes, ''))).join('');
  return `<${tag}${declarations}${attrs}>${inner}</${tag}>`;
}
