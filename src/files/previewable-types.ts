// Which files a browser may be asked to show in a page, rather than save: the one list for the
// REST API's signed downloads (`disposition=inline`, docs/files.md) and share links' previews
// (docs/sharing.md). Pictures, PDF, plain text, sound and film; nothing that runs script where it
// is shown (HTML, SVG, XML), whatever the sandbox it is served with.

const PREVIEWABLE = new Set([
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/avif', 'application/pdf', 'text/plain', 'text/markdown', 'text/csv',
  'text/tab-separated-values',
]);

/** Whether a file of this media type (by its name, lib/media-types.ts) may be served inline. */
export function isPreviewable(mimeType: string | null): boolean {
  return mimeType !== null && (PREVIEWABLE.has(mimeType) || mimeType.startsWith('audio/') || mimeType.startsWith('video/'));
}
