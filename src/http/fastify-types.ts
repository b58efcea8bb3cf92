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
     * `files_only` keys may call this route: file and folder operations, and listing Workspaces
     * (which only says where the caller's folders are). Every other route is administrative.
     */
    allowFilesOnlyKeys?: boolean;
  }
  interface FastifyRequest {
    /** Set by the authentication hook on every non-public API route. */
    caller: Caller;
    /** The request context: the Workspace this request operates on (contract 4.1). */
    workspaceId: number;
  }
}
