export type ModelErrors = Record<string, string[]>;

/**
 * The kinds of failure every front door knows how to say: the first part of an error `type`
 * (contract 1.4). Each protocol maps a family to its own form: an HTTP status for the REST API,
 * a status with a DAV body for WebDAV, an `SSH_FX_*` code for SFTP.
 */
export const ERROR_FAMILIES = [
  'bad-request',
  'not-authenticated',
  'not-authorized',
  'not-found',
  'processing-failure',
  'rate-limited',
  'service-unavailable',
  'internal-server-error',
] as const;

export type ErrorFamily = (typeof ERROR_FAMILIES)[number];

export interface ErrorDetails {
  /** Field name to messages, for input that could not be used. */
  modelErrors?: ModelErrors;
  data?: Record<string, unknown>;
  /** When trying again makes sense (rate limits), in seconds. */
  retryAfterSeconds?: number;
  /**
   * The request header the error is about, by what it carries. The message reads well without it;
   * a front door that reads headers adds their names as its clients spell them.
   */
  header?: 'credentials' | 'workspace' | 'reauthentication';
}

/**
 * A refusal or failure a feature reports, in protocol-neutral terms: a `type` from the catalogue
 * (catalogue.ts), a message for people, and details. Features throw these and never say how a
 * protocol answers them; each front door renders them (the REST API in http/error-rendering.ts).
 */
export class AtriumError extends Error {
  readonly family: ErrorFamily;

  constructor(
    readonly type: string,
    message: string,
    readonly extra: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'AtriumError';
    this.family = familyOf(type);
  }
}

/** The family of an error type; an unknown family is a programming error, caught at once. */
export function familyOf(type: string): ErrorFamily {
  const family = type.split('/', 1)[0] ?? type;
  if (!(ERROR_FAMILIES as readonly string[]).includes(family)) throw new Error(`error type "${type}" has no known family`);
  return family as ErrorFamily;
}

/** `title` is the specific part of `type` in Title Case (`not-found` alone gives "Not Found"). */
export function titleForType(type: string): string {
  const specific = type.includes('/') ? type.slice(type.indexOf('/') + 1) : type;
  return specific
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
