/** Said on the window when the console created, renamed or deleted a Workspace, so the switcher lists them afresh. */
export const WORKSPACES_CHANGED = 'atrium:workspaces-changed';

export function announceWorkspacesChanged(): void {
  window.dispatchEvent(new Event(WORKSPACES_CHANGED));
}
