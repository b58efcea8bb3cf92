import { AtriumError } from '../../errors/atrium-error.js';
import type { FileEntry } from '../../files/index.js';
import type { DavContext } from '../dav-request.js';

/** The entry at a path, or undefined where there is none the caller can see (not-found). */
export async function statOrUndefined(ctx: DavContext, path: string): Promise<FileEntry | undefined> {
  try {
    return await ctx.session.stat(path);
  } catch (error) {
    if (error instanceof AtriumError && error.family === 'not-found') return undefined;
    throw error;
  }
}

/** A request header's value (the first, if sent several times). */
export function headerOf(ctx: DavContext, name: string): string | undefined {
  const value = ctx.request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether an error is an AtriumError of this type. */
export function isErrorType(error: unknown, type: string): boolean {
  return error instanceof AtriumError && error.type === type;
}
