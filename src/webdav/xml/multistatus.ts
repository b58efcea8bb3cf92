import { STATUS_CODES } from 'node:http';

export const xmlDeclaration = '<?xml version="1.0" encoding="utf-8"?>\n';

/** Attribute values (always in double quotes) and text escaped for XML; any Unicode (above the BMP too) passes as itself. */
export function escapeXml(text: string): string {
  // Most text has nothing to escape: a test allocates nothing, where a replace with a callback would.
  return ATTRIBUTE_SPECIAL.test(text) ? text.replace(ATTRIBUTE_SPECIALS, (c) => ESCAPES[c] as string) : text;
}

/** Element text: only what XML requires, so an entity tag reads `"..."` as clients compare it. */
export function escapeText(text: string): string {
  return TEXT_SPECIAL.test(text) ? text.replace(TEXT_SPECIALS, (c) => ESCAPES[c] as string) : text;
}

const ATTRIBUTE_SPECIAL = /[&<>"']/;
const ATTRIBUTE_SPECIALS = /[&<>"']/g;
const TEXT_SPECIAL = /[&<>]/;
const TEXT_SPECIALS = /[&<>]/g;

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
}

/** Properties that share one status in a response (RFC 4918 14.22). Each prop is a serialized element. */
export interface PropStat {
  status: number;
  props: readonly string[];
}

/** One response of a multistatus: properties by status (PROPFIND, PROPPATCH), or one status (COPY, MOVE, DELETE). */
export type DavResponse =
  | { href: string; propstats: readonly PropStat[] }
  | { href: string; status: number; error?: string | undefined; description?: string | undefined };

/** A `207 Multi-Status` body. `DAV:` is the prefix `D`; other namespaces are declared where they are used. */
export function multistatus(responses: Iterable<DavResponse>): string {
  const parts = [`${xmlDeclaration}<D:multistatus xmlns:D="DAV:">`];
  for (const response of responses) parts.push(responseXml(response));
  parts.push('</D:multistatus>\n');
  return parts.join('');
}

function responseXml(response: DavResponse): string {
  const href = `<D:href>${escapeXml(response.href)}</D:href>`;
  if ('propstats' in response) {
    const stats = response.propstats
      .filter((stat) => stat.props.length > 0)
      .map((stat) => `<D:propstat><D:prop>${stat.props.join('')}</D:prop><D:status>${statusLine(stat.status)}</D:status></D:propstat>`)
      .join('');
    return `<D:response>${href}${stats}</D:response>`;
  }
  const error = response.error === undefined ? '' : `<D:error><D:${response.error}/></D:error>`;
  const description = response.description === undefined ? '' : `<D:responsedescription>${escapeXml(response.description)}</D:responsedescription>`;
  return `<D:response>${href}<D:status>${statusLine(response.status)}</D:status>${error}${description}</D:response>`;
}
