import type { Readable } from 'node:stream';
import { AtriumError } from '../errors/atrium-error.js';
import type { FileEntry, FileSession } from '../files/index.js';
import type { AutomationSettings } from '../repositories/automations.js';
import { StepRefused } from './step-retries.js';

// The file operations a run's steps are made of (docs/automations.md#what-each-type-does), each
// done through the caller's file session as any front door does them, and each safe to do again:
// a run cut short (its node killed) is run again from its start, so finding a step's work already
// done counts as done, and nothing is lost or doubled.

/** What a step did, for its log line. */
export type StepOutcome = 'done' | 'already done' | 'left as it was';

const isAtriumFailure = (error: unknown, family: string) => error instanceof AtriumError && error.family === family;

export async function statIfThere(session: FileSession, path: string): Promise<FileEntry | undefined> {
  try {
    return await session.stat(path);
  } catch (error) {
    if (isAtriumFailure(error, 'not-found')) return undefined;
    throw error;
  }
}

/** A folder, with the folders above it; one already there is done. */
export async function ensureFolder(session: FileSession, path: string): Promise<StepOutcome> {
  if (path === '') return 'already done';
  const existing = await statIfThere(session, path);
  if (existing !== undefined) {
    if (existing.type !== 'directory') throw new StepRefused(`a file stands at /${path}`);
    return 'already done';
  }
  try {
    await session.createFolder(path, { mkdirParents: true });
    return 'done';
  } catch (error) {
    // Made between the look and the write (another run, a client): there it is.
    if (error instanceof AtriumError && error.type === 'processing-failure/destination-exists' && (await statIfThere(session, path))?.type === 'directory') {
      return 'already done';
    }
    throw error;
  }
}

/** Deletes a file; one already gone is done. */
export async function deleteFile(session: FileSession, path: string): Promise<StepOutcome> {
  try {
    await session.delete(path, { recursive: false });
    return 'done';
  } catch (error) {
    if (isAtriumFailure(error, 'not-found')) return 'already done';
    throw error;
  }
}

type PlacementSettings = Pick<AutomationSettings, 'overwrite_files' | 'always_overwrite_size_matching_files'>;

/**
 * Copies (or moves) `from` to `to`, making the folders above `to`. What stands at `to` decides:
 * - the same bytes: the work is done already (a move then only removes its source);
 * - a file of the same size: left as it is, as Files.com does to spare a needless transfer,
 *   unless `always_overwrite_size_matching_files`;
 * - any other file: replaced with `overwrite_files`, else the step is refused;
 * - a folder: refused.
 */
export async function placeFile(session: FileSession, from: FileEntry, to: string, settings: PlacementSettings, move: boolean): Promise<StepOutcome> {
  const existing = await statIfThere(session, to);
  if (existing !== undefined) {
    if (existing.path.toLowerCase() === from.path.toLowerCase()) return 'already done';
    if (existing.type === 'directory') throw new StepRefused(`a folder stands at /${to}`);
    if (existing.sha256 !== null && existing.sha256 === from.sha256) {
      if (move) await deleteFile(session, from.path);
      return 'already done';
    }
    if (existing.size === from.size && !settings.always_overwrite_size_matching_files) return 'left as it was';
    if (!settings.overwrite_files) throw new StepRefused(`/${to} exists, and overwrite_files is off`);
  }
  await ensureFolder(session, parentOf(to));
  const options = { overwrite: existing !== undefined };
  if (move) await session.move(from.path, to, options);
  else await session.copy(from.path, to, options);
  return 'done';
}

/** Writes fetched bytes to `to`, making the folders above it; what stands there is replaced only with `overwrite_files`. */
export async function writeImported(session: FileSession, to: string, body: Readable, settings: Pick<AutomationSettings, 'overwrite_files'>): Promise<FileEntry> {
  const existing = await statIfThere(session, to);
  if (existing !== undefined && (existing.type === 'directory' || !settings.overwrite_files)) {
    body.destroy();
    throw new StepRefused(existing.type === 'directory' ? `a folder stands at /${to}` : `/${to} exists, and overwrite_files is off`);
  }
  const { entry } = await session.write(to, body, { mkdirParents: true });
  return entry;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
