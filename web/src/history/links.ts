/**
 * The address of the History screen for one folder (it and everything under it) or one file.
 * Kept apart from the screen, which loads only when opened, so the Files page can link to it.
 */
export function historyLink(entry: { path: string; type: 'directory' | 'file' }): string {
  return `/history?${new URLSearchParams({ [entry.type === 'directory' ? 'folder' : 'file']: entry.path }).toString()}`;
}
