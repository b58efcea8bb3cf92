import { toRequestPath } from '../access/index.js';
import { AtriumError } from '../errors/atrium-error.js';
import { EVERY_ENTRY, type FileEntry, type FileSession } from '../files/index.js';
import type { Automation } from '../repositories/automations.js';
import { automationTakesFile, compileFileGlobs, parsePathGlob, pathGlobMatches, type PathGlob } from './globs.js';
import type { RunLog } from './run-log.js';
import { statIfThere } from './run-steps.js';
import type { AutomationRunCause } from './run-cause.js';

// The files a run of `delete_file`, `copy_file` or `move_file` takes (docs/automations.md#which-files):
// for a file action, the file that triggered it; otherwise every file its globs match, looked for
// below the globs' fixed prefix as the automation's Workspace shows it, page by page.

export interface SourceFile {
  /** As the automation's Workspace shows it (relative to its root; a site path in Workspace 0). */
  readonly entry: FileEntry;
  /** The folder `path` matched it in: its folders below this are kept under a folder destination. */
  readonly base: string;
}

const PAGE = 500;

export async function* sourceFiles(session: FileSession, automation: Automation, cause: AutomationRunCause, log: RunLog): AsyncGenerator<SourceFile> {
  const settings = automation.settings;
  const params = cause.kind === 'webhook' ? cause.params : {};
  const compiled = compileFileGlobs({ path: withParams(settings.path, params), source: withParams(settings.source, params), exclude_pattern: settings.exclude_pattern });
  // Saving checked the globs; one refused now was saved before a rule refused it.
  if (!compiled.ok) throw new Error(`its ${compiled.field} cannot be read: ${compiled.problem}`);
  const pathGlob = parsePathGlob((withParams(settings.path, params) ?? '').replace(/^\/+|\/+$/g, ''));
  const folderGlob = pathGlob.ok ? pathGlob.glob : undefined;
  if (cause.kind === 'action') {
    const arrived = toRequestPath(automation.workspaceId, cause.destination ?? cause.path);
    if (arrived === null) return;
    if (cause.action === 'destroy' || cause.action === 'archived_delete') {
      log.note(`/${arrived} was deleted: there is no file to take`);
      return;
    }
    const entry = await statIfThere(session, arrived);
    if (entry === undefined || entry.type !== 'file') {
      log.note(`/${arrived} is no longer there`);
      return;
    }
    if (!automationTakesFile(compiled.globs, entry.path)) return;
    yield { entry, base: baseOf(folderGlob, entry.path) };
    return;
  }
  let after: Awaited<ReturnType<FileSession['search']>>['next'];
  let found = 0;
  do {
    let page;
    try {
      page = await session.search(compiled.globs.folder, { match: EVERY_ENTRY, after, limit: PAGE });
    } catch (error) {
      if (error instanceof AtriumError && error.family === 'not-found') {
        log.note(`/${compiled.globs.folder} does not exist: no file to take`);
        return;
      }
      throw error;
    }
    for (const entry of page.entries) {
      if (entry.type !== 'file' || !automationTakesFile(compiled.globs, entry.path)) continue;
      found += 1;
      yield { entry, base: baseOf(folderGlob, entry.path) };
    }
    after = page.next;
  } while (after !== undefined);
  if (found === 0) log.note('No file matched');
}

const WEBHOOK_TOKEN = /%u-([A-Za-z0-9_]+)/g;

/**
 * A glob with the webhook call's `%u-<param>` tokens filled in (docs/automations.md#webhook-calls):
 * "move the file the call names". A value is taken literally, its wildcards escaped, so a caller
 * names files and never widens what the automation takes; one holding a `/`, or a token the call
 * did not send, fails the run, saying which.
 */
function withParams(glob: string | null, params: Readonly<Record<string, string>>): string | null {
  if (glob === null || !glob.includes('%u-')) return glob;
  return glob.replace(WEBHOOK_TOKEN, (_, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined) throw new Error(`%u-${name} cannot be filled in: the call sent no parameter ${name}`);
    if (value.includes('/') || value === '' || value === '.' || value === '..') throw new Error(`%u-${name} cannot be filled in: "${value}" is not a name`);
    return value.replace(/[*?[\]{}\\]/g, (c) => `\\${c}`);
  });
}

/** The shallowest folder above the file that `path` matches ('' for the root, or when none does). */
function baseOf(folderGlob: PathGlob | undefined, filePath: string): string {
  if (folderGlob === undefined) return '';
  const folders = filePath.split('/').slice(0, -1);
  for (let depth = 0; depth <= folders.length; depth += 1) {
    const folder = folders.slice(0, depth).join('/');
    if (pathGlobMatches(folderGlob, folder)) return folder;
  }
  return '';
}
