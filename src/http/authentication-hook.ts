import type { FastifyRequest } from 'fastify';
import type { Clock } from '../lib/time.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { authenticate } from '../identity/index.js';
import { resolveRequestWorkspace } from '../access/index.js';
import { readHeader, type BrandHeaders } from './brand-headers.js';
import { readCredentials } from './credentials.js';

/**
 * Runs before every non-public API route: who is calling, then which Workspace the request
 * operates on. It decides no authority; services do, from current data.
 */
export function authenticationHook(db: Db, clock: Clock, headers: BrandHeaders) {
  return async function authenticateRequest(request: FastifyRequest): Promise<void> {
    const config = request.routeOptions.config;
    if (config.public === true) return;
    const caller = await authenticate(db, clock, readCredentials(request.headers, headers));
    request.caller = caller;
    request.workspaceId = await resolveRequestWorkspace(db, caller, readHeader(request.headers, headers.workspace));
    const credential = caller.credential;
    if (credential.kind === 'api_key' && credential.permissionSet === 'files_only' && config.allowFilesOnlyKeys !== true) {
      throw errors.apiKeyIsFilesOnly();
    }
  };
}
