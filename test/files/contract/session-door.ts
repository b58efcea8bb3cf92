import { Readable } from 'node:stream';
import { resolveRequestWorkspace } from '../../../src/access/index.js';
import { AtriumError } from '../../../src/errors/atrium-error.js';
import { DEFAULT_LISTING_SORT, type FileEntry, type FileSession } from '../../../src/files/index.js';
import { authenticate } from '../../../src/identity/index.js';
import type { TestApp } from '../../support/test-app.js';
import { FILE_CAPABILITIES, type DoorEntry, type FileDoor, type Who } from './file-door.js';

/**
 * The file seam itself: a FileSession from the test app's core, opened the way every front door
 * opens one (authenticate the credential, resolve the request's Workspace, ask for the session).
 * Refusals are the AtriumErrors the session throws, with their exact types.
 */
export function sessionDoor(t: TestApp): FileDoor {
  const open = async (who: Who): Promise<FileSession> => {
    const { db } = t.database;
    const caller = await authenticate(db, t.clock, { apiKey: who.key, sessionId: undefined });
    const requestWorkspaceId = await resolveRequestWorkspace(db, caller, who.workspace === undefined ? undefined : String(who.workspace));
    return t.core.files.session(caller, requestWorkspaceId, { interface: 'restapi', ip: '127.0.0.1' });
  };
  return {
    name: 'file session',
    speaks: { capabilities: true, workspaceSelection: true, dotSegmentsRefused: true, emptyFolderDelete: true },
    list: async (who, path) => (await (await open(who)).list(path, { sort: DEFAULT_LISTING_SORT, after: undefined, limit: 1000 })).entries.map(doorEntry),
    stat: async (who, path) => doorEntry(await (await open(who)).stat(path)),
    read: async (who, path) => text((await (await open(who)).read(path)).stream),
    write: async (who, path, content) => doorEntry((await (await open(who)).write(path, Readable.from([Buffer.from(content)]), { mkdirParents: true })).entry),
    createFolder: async (who, path, options) => doorEntry(await (await open(who)).createFolder(path, options)),
    move: async (who, from, to) => (await open(who)).move(from, to),
    copy: async (who, from, to) => (await open(who)).copy(from, to),
    delete: async (who, path, options) => (await open(who)).delete(path, options),
    refusalOf: (error) => (error instanceof AtriumError ? { families: [error.family], type: error.type } : undefined),
    close: async () => undefined,
  };
}

function doorEntry(entry: FileEntry): DoorEntry {
  return {
    path: entry.path,
    type: entry.type,
    size: entry.size,
    capabilities: FILE_CAPABILITIES.filter((capability) => entry.capabilities.includes(capability)),
  };
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
