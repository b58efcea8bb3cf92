import type { ApiInstance } from '../../fastify-types.js';
import type { RouteDeps } from '../../route-deps.js';
import { downloadRoutes } from './downloads.js';
import { fileActionRoutes } from './file-actions.js';
import { fileRoutes } from './files.js';
import { folderRoutes } from './folders.js';
import { uploadRoutes } from './uploads.js';

/**
 * Folders and files (contract 6, docs/files.md): each route translates one call on the caller's
 * file session (files/), which decides, and renders its answer. Every route takes files_only
 * keys; the signed transfer URLs are public and carry their own authority.
 */
export function filesAndFoldersRoutes(app: ApiInstance, deps: RouteDeps): void {
  folderRoutes(app, deps);
  fileRoutes(app, deps);
  fileActionRoutes(app, deps);
  uploadRoutes(app, deps);
  downloadRoutes(app, deps);
}
