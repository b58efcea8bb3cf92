import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { Caller, OperationKind, PasswordChangeReach, PathFrame } from '../access/index.js';

export type ApiInstance = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers without a credential (health, POST and DELETE /sessions, the OpenAPI document). */
    public?: boolean;
    /**
     * Also open, without a credential, to the partial session of a sign-in that must set up a
     * second factor first (the /2fa endpoints): the route reads that partial session itself.
     */
    enrolment?: boolean;
    /**
     * Which kind of operation the route is, for the credential gate (access/credential-gate.ts):
     * `file` routes leave the gate to their file session, which applies it for every front door;
     * `file-context` routes (listing Workspaces, the calling key itself) are open to `files_only`
     * keys; anything else is `administration`, the default.
     */
    operation?: OperationKind;
    /**
     * The `route` label /metrics counts the route's requests under, when not its own URL: the
     * console's assets are one route per file, named after each build's content hashes.
     */
    metricsRoute?: string;
    /**
     * What the route offers a session whose user must change its password first
     * (access/password-change-gate.ts); routes without it are refused to such a session.
     */
    duringPasswordChange?: PasswordChangeReach;
  }
  interface FastifyRequest {
    /** Set by the authentication hook on every non-public API route (but for an enrolment route asked without a credential). */
    caller: Caller;
    /** The request's Workspace: the Workspace this request operates on (contract 4.1). */
    requestWorkspaceId: number;
    /** A Partner user's path frame (its Partner's root folder); undefined for everyone else. */
    pathFrame?: PathFrame;
  }
}
