import { DEFAULT_LISTING_SORT, type FileEntry } from '../../files/index.js';
import { hrefOf, type DavContext } from '../dav-request.js';
import { escapeXml } from '../xml/multistatus.js';

/** A folder page shows at most this many entries; WebDAV clients list with PROPFIND, not this. */
const SHOWN = 1000;

/**
 * GET of a folder: a plain HTML list of its entries (the first SHOWN, in the listing's order), for
 * a person who points a browser at /dav/. No script, no style from anywhere (CSP).
 */
export async function folderPage(ctx: DavContext, folder: FileEntry, headersOnly: boolean): Promise<void> {
  const page = await ctx.session.list(folder.path, { sort: DEFAULT_LISTING_SORT, after: undefined, limit: SHOWN });
  const title = escapeXml(`/${folder.path}`);
  const items = page.entries.map((entry) => {
    const folderEntry = entry.type === 'directory';
    return `<li><a href="${escapeXml(hrefOf(entry.path, folderEntry))}">${escapeXml(entry.name)}${folderEntry ? '/' : ''}</a></li>`;
  });
  const more = page.next === undefined ? '' : `<p>Only the first ${SHOWN} entries are shown.</p>`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><ul>${items.join('')}</ul>${more}</body></html>\n`;
  ctx.reply
    .code(200)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', "default-src 'none'")
    .header('X-Content-Type-Options', 'nosniff');
  if (headersOnly) {
    ctx.reply.header('Content-Length', String(Buffer.byteLength(html))).send();
    return;
  }
  ctx.reply.send(html);
}
