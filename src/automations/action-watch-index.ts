import { workspaceRootKey } from '../authz/index.js';
import { joinPath, pathKey } from '../lib/paths.js';
import type { ActionWatchRow } from '../repositories/automation-watch.js';
import { automationTakesFile, type CompiledFileGlobs, compileFileGlobs } from './globs.js';

// Which `action` automations watch a file action (docs/automations.md#action-triggers). Every
// upload, download, move, copy and deletion asks, so the answer must not cost a look at every
// automation: each is filed under the folder every file it takes lies in (the fixed prefix of its
// globs, as a site path), and a file's action looks only under the folders above the file, one map
// look-up per folder of its path.

/** The actions a trigger names, as a file's records name them. */
export type FileAction = 'create' | 'update' | 'copy' | 'move' | 'destroy' | 'read';

const FILE_ACTIONS: ReadonlySet<string> = new Set<FileAction>(['create', 'update', 'copy', 'move', 'destroy', 'read']);

/** `archived_delete` (Files.com's deletion into its archive) is a deletion here: Atrium has no archive. */
function fileActionNamed(name: string): FileAction | undefined {
  if (name === 'archived_delete') return 'destroy';
  return FILE_ACTIONS.has(name) ? (name as FileAction) : undefined;
}

/** The action of a History record, when it is one a trigger can name. */
export function fileActionOf(historyAction: string): FileAction | undefined {
  return FILE_ACTIONS.has(historyAction) ? (historyAction as FileAction) : undefined;
}

/** One enabled `action` automation, ready to match. */
export interface ActionWatch {
  readonly id: number;
  readonly workspaceId: number;
  readonly actions: ReadonlySet<FileAction>;
  readonly globs: CompiledFileGlobs;
  /** Key of its Workspace's root folder ('' for Workspace 0): its globs are relative to it. */
  readonly rootKey: string;
}

/** An automation's watch, or undefined when its globs do not compile (it then takes no file). */
export function actionWatchOf(row: ActionWatchRow): ActionWatch | undefined {
  const compiled = compileFileGlobs({ path: row.path, source: row.source, exclude_pattern: row.excludePattern });
  if (!compiled.ok) return undefined;
  const actions = new Set(row.triggerActions.map(fileActionNamed).filter((action): action is FileAction => action !== undefined));
  if (actions.size === 0) return undefined;
  return { id: row.id, workspaceId: row.workspaceId, actions, globs: compiled.globs, rootKey: row.workspaceId === 0 ? '' : workspaceRootKey(row.workspaceId) };
}

/**
 * Whether `watch` takes the file at `sitePath` for `action`: a scan's answer, one automation at a
 * time. The file's path as the automation's Workspace sees it is matched; a file outside that
 * Workspace is never taken. Workspace 0's root is the site's, so its automations match site
 * paths, and only a glob that names `_/Workspaces/<id>/...` reaches into a Custom Workspace.
 */
export function watchTakes(watch: ActionWatch, action: FileAction, sitePath: string): boolean {
  if (!watch.actions.has(action)) return false;
  if (watch.rootKey === '') return automationTakesFile(watch.globs, sitePath);
  if (!pathKey(sitePath).startsWith(`${watch.rootKey}/`)) return false;
  return automationTakesFile(watch.globs, sitePath.slice(watch.rootKey.length + 1));
}

export class ActionWatchIndex {
  /** Watches by the site path key of the folder their files lie in. */
  private readonly byFolder = new Map<string, ActionWatch[]>();
  readonly size: number;

  constructor(watches: Iterable<ActionWatch>) {
    let size = 0;
    for (const watch of watches) {
      const folderKey = joinPath(watch.rootKey, pathKey(watch.globs.folder));
      const filed = this.byFolder.get(folderKey);
      if (filed === undefined) this.byFolder.set(folderKey, [watch]);
      else filed.push(watch);
      size += 1;
    }
    this.size = size;
  }

  /**
   * The automations that take the file at `sitePath` (a qualified site path) for `action`. Only
   * the folders above the file (and its own path) are looked in, since every file an automation
   * takes lies in the fixed prefix it is filed under.
   */
  watchersOf(action: FileAction, sitePath: string): ActionWatch[] {
    if (this.size === 0) return [];
    const key = pathKey(sitePath);
    const found: ActionWatch[] = [];
    const lookIn = (folderKey: string) => {
      for (const watch of this.byFolder.get(folderKey) ?? []) if (watchTakes(watch, action, sitePath)) found.push(watch);
    };
    lookIn('');
    for (let slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) lookIn(key.slice(0, slash));
    // A trailing `**` matches no folder at all, so `in/**` takes a file named `in` too.
    lookIn(key);
    return found;
  }
}
