/**
 * Marks, in a route's schema, what the OpenAPI document says about the route beyond its schema.
 * Fastify ignores schema keys it does not know, so a marker never changes what a request may send.
 */
export const REAUTHENTICATION_MARKER = 'x-atrium-reauthentication';

/** The route asks a session to confirm the user's password in the reauthentication header. */
export const asksForReauthentication = { [REAUTHENTICATION_MARKER]: true } as const;

export const SESSION_HEADER_MARKER = 'x-atrium-session-header';

/** A public route that still reads the session header (logging out names the session to end). */
export const readsSessionHeader = { [SESSION_HEADER_MARKER]: true } as const;
