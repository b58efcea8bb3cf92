/** How a preview shows a file: the browser draws the first four; text is read and shown as text. */
export type PreviewKind = 'image' | 'pdf' | 'audio' | 'video' | 'text';

// Source code and configuration, shown as text whatever media type their extension has (`.ts`
// is a video's type to some tables). Text is read and shown as characters, never run or drawn,
// so any file may be shown so; this list only says which are worth it.
const TEXT_EXTENSIONS = new Set([
  'txt', 'log', 'md', 'csv', 'tsv', 'json', 'yaml', 'yml', 'toml', 'ini', 'conf', 'cfg', 'env', 'xml', 'html', 'htm', 'css', 'svg',
  'js', 'mjs', 'cjs', 'ts', 'tsx', 'jsx', 'py', 'rb', 'go', 'rs', 'java', 'kt', 'c', 'h', 'cpp', 'hpp', 'cs', 'php', 'sh', 'bash', 'ps1',
  'sql', 'r', 'swift', 'lua', 'pl', 'scala', 'vue', 'dockerfile', 'makefile', 'gitignore', 'properties', 'tex', 'srt', 'vtt',
]);

/**
 * How a file of this name and media type is best shown, or undefined when it is not (it is
 * downloaded). Whether the server serves pictures, PDF, sound and film inline is its own decision
 * (the preview asks it); this only picks the viewer.
 */
export function previewKindOf(name: string, mimeType: string | null | undefined): PreviewKind | undefined {
  const dot = name.lastIndexOf('.');
  const extension = (dot === -1 ? name : name.slice(dot + 1)).toLowerCase();
  if (TEXT_EXTENSIONS.has(extension)) return 'text';
  const type = mimeType ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('text/') || type === 'application/json') return 'text';
  return undefined;
}
