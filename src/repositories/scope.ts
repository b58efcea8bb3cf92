/**
 * Which Workspaces a query may touch. Every Workspace-scoped query takes one explicitly, so no
 * code path can forget the request context: one Workspace, or `site` (every Workspace), which only
 * a Site Administrator working in context 0 gets.
 */
export type Scope = { kind: 'workspace'; workspaceId: number } | { kind: 'site' };

export const siteScope: Scope = { kind: 'site' };

export function workspaceScope(workspaceId: number): Scope {
  return { kind: 'workspace', workspaceId };
}

export function inScope(scope: Scope, workspaceId: number): boolean {
  return scope.kind === 'site' || scope.workspaceId === workspaceId;
}
