import { AtriumError } from '../errors/atrium-error.js';

/**
 * A refusal in WebDAV's own terms: an HTTP status and, for the RFC 4918 preconditions and
 * postconditions (`propfind-finite-depth`, `lock-token-submitted`, ...), the element named in the
 * `DAV:error` body. Thrown by the methods; rendered by register-webdav.ts.
 */
export class DavError extends Error {
  /** `hrefs` go inside the precondition element (RFC 4918 16: lock-token-submitted names the locked resources). */
  constructor(readonly status: number, message: string, readonly precondition?: string, readonly hrefs: readonly string[] = []) {
    super(message);
    this.name = 'DavError';
  }
}

/** Where one error type maps to another status than its family's (RFC 4918's habits). */
const STATUS_BY_TYPE: Readonly<Record<string, number>> = {
  'processing-failure/destination-exists': 412,
  'processing-failure/destination-parent-does-not-exist': 409,
  'processing-failure/destination-parent-conflict': 409,
  'processing-failure/folder-not-empty': 409,
  'processing-failure/upload-parts-changed': 409,
  'bad-request/destination-same': 403,
  'bad-request/destination-inside-source': 403,
  'bad-request/cannot-download-directory': 405,
  'bad-request/request-body-too-large': 413,
  'bad-request/method-not-allowed': 405,
  // A lock the caller does not hold, found by the file operations themselves (a lock taken while the request ran).
  'processing-failure/file-locked': 423,
  'processing-failure/folder-locked': 423,
  // RFC 4918 11.5: the server cannot store what the request asks to keep (a cap of docs/webdav.md).
  'processing-failure/storage-limit-reached': 507,
};

const STATUS_BY_FAMILY: Readonly<Record<string, number>> = {
  'bad-request': 400,
  'not-authenticated': 401,
  'not-authorized': 403,
  // Invisible and absent are the same answer, as in the REST API: the file services say not-found for both.
  'not-found': 404,
  'processing-failure': 409,
  'rate-limited': 429,
  'service-unavailable': 503,
  'internal-server-error': 500,
};

export interface DavFailure {
  status: number;
  message: string;
  precondition?: string | undefined;
  /** Hrefs inside the precondition element. */
  hrefs?: readonly string[] | undefined;
  /** Seconds to wait, for 429 (login throttling). */
  retryAfterSeconds?: number | undefined;
}

/** The WebDAV answer of any failure: a DavError as it is, an AtriumError by its type or family. */
export function davErrorOf(error: unknown): DavFailure {
  if (error instanceof DavError) return { status: error.status, message: error.message, precondition: error.precondition, hrefs: error.hrefs };
  if (error instanceof AtriumError) {
    const status = STATUS_BY_TYPE[error.type] ?? STATUS_BY_FAMILY[error.family] ?? 500;
    const retry = error.extra.retryAfterSeconds;
    return { status, message: error.message, retryAfterSeconds: typeof retry === 'number' ? retry : undefined };
  }
  const framework = error as { statusCode?: number; message?: string };
  if (typeof framework.statusCode === 'number' && framework.statusCode >= 400 && framework.statusCode < 500) {
    return { status: framework.statusCode, message: framework.message ?? 'Bad request.' };
  }
  return { status: 500, message: 'Internal server error.' };
}

/** The status an error would be answered with (for a multistatus line). */
export function davStatusOf(error: unknown): number {
  return davErrorOf(error).status;
}

export const davErrors = {
  badRequest: (message: string) => new DavError(400, message),
  forbidden: (message: string, precondition?: string) => new DavError(403, message, precondition),
  conflict: (message: string) => new DavError(409, message),
  preconditionFailed: (message: string) => new DavError(412, message),
  unsupportedMediaType: (message: string) => new DavError(415, message),
  methodNotAllowed: (message: string) => new DavError(405, message),
  badGateway: (message: string) => new DavError(502, message),
  tooLarge: (message: string) => new DavError(413, message),
};
