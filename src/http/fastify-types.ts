import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { Caller } from '../access/index.js';

export type ApiInstance = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers without a credential (health, POST and DELETE /sessions, the OpenAPI document). */
    public?: boolean;
    /**
     * A file or folder route: its file session applies the credential gate (access/), as it does
     * for every front door, so the authentication hook leaves the gate to it.
     */
    fileOperation?: boolean;
    /**
     * Not a file operation, yet open to `files_only` keys: listing Workspaces (which only says
     * where the caller's folders are) and the calling key itself (`file-context` for the gate).
     * Every other route is administrative.
     */
    allowFilesOnlyKeys?: boolean;
  }
  interface FastifyRequest {
    /** Set by the authentication hook on every non-public API route. */
    caller: Caller;
    /** The request's Workspace: the Workspace this request operates on (contract 4.1). */
    workspaceId: number;
  }
}
