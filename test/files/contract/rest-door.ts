import { familyOf } from '../../../src/errors/atrium-error.js';
import type { TestApp } from '../../support/test-app.js';
import { FILE_CAPABILITIES, type DoorEntry, type FileDoor, type Who } from './file-door.js';

const API = '/api/rest/v1';

/** An answer of the REST API that is not a success: its status and its JSON error body. */
class RestRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: { type?: string } | undefined,
  ) {
    super(`HTTP ${status}: ${JSON.stringify(body)}`);
  }
}

/**
 * The REST API as a door to the file contract: each operation as the Files.com SDKs call it,
 * over real HTTP. Refusals carry their exact type in the JSON error body.
 */
export function restDoor(t: TestApp): FileDoor {
  const call = async (who: Who, method: string, resource: string, path: string, options: { query?: string; json?: unknown; bytes?: string } = {}) => {
    const headers: Record<string, string> = { 'X-ServiceAPI-Key': who.key };
    if (who.workspace !== undefined) headers['X-Service-Workspace-Id'] = String(who.workspace);
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const body = options.json === undefined ? options.bytes : JSON.stringify(options.json);
    // The path as one percent-encoded segment, as the JavaScript SDK sends it.
    const url = `${t.baseUrl}${API}/${resource}/${encodeURIComponent(path)}${options.query ?? ''}`;
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('application/json') && text !== '' ? JSON.parse(text) : undefined;
    if (response.status >= 400) throw new RestRefusal(response.status, json);
    return { json, text };
  };
  return {
    name: 'REST API',
    speaks: { capabilities: true, workspaceSelection: true, dotSegmentsRefused: true, emptyFolderDelete: true },
    list: async (who, path) => ((await call(who, 'GET', 'folders', path, { query: '?per_page=1000' })).json as RestEntry[]).map(doorEntry),
    stat: async (who, path) => doorEntry((await call(who, 'GET', 'file_actions/metadata', path)).json),
    read: async (who, path) => (await call(who, 'GET', 'files', path, { query: '?action=stream' })).text,
    write: async (who, path, content) => doorEntry((await call(who, 'PUT', 'files', path, { bytes: content })).json),
    createFolder: async (who, path, options) => doorEntry((await call(who, 'POST', 'folders', path, { json: { mkdir_parents: options.mkdirParents } })).json),
    move: async (who, from, to) => void (await call(who, 'POST', 'file_actions/move', from, { json: { destination: to } })),
    copy: async (who, from, to) => void (await call(who, 'POST', 'file_actions/copy', from, { json: { destination: to } })),
    delete: async (who, path, options) => void (await call(who, 'DELETE', 'files', path, { query: `?recursive=${options.recursive}` })),
    refusalOf: (error) => {
      const type = error instanceof RestRefusal ? error.body?.type : undefined;
      return type === undefined ? undefined : { families: [familyOf(type)], type };
    },
    close: async () => undefined,
  };
}

interface RestEntry {
  path: string;
  type: 'file' | 'directory';
  size: number | null;
  permissions: string;
}

function doorEntry(body: RestEntry): DoorEntry {
  return {
    path: body.path,
    type: body.type,
    size: body.size,
    capabilities: FILE_CAPABILITIES.filter((capability) => body.permissions.includes(capability.charAt(0))),
  };
}
