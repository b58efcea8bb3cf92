/**
 * The colour a Workspace is shown in (the header's underline, the switcher's dot, its badge), so
 * that a person working in several sees at a glance which one they are in. Taken from the id, so
 * it is the same in every tab and browser; the Default Workspace is always the console's own indigo.
 */
const COLOURS = ['teal', 'orange', 'grape', 'cyan', 'pink', 'lime', 'violet', 'red', 'blue', 'yellow'] as const;

export function workspaceColour(workspaceId: number): string {
  if (workspaceId === 0) return 'indigo';
  return COLOURS[(workspaceId - 1) % COLOURS.length] as string;
}
