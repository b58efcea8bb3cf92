import type { PartsOffer } from './uploads.js';
import { requestPathIn, type SessionScope } from './session-scope.js';

/** Where and until when to send one part of an upload, as a session answers it. */
export interface UploadOffer {
  /** The upload's reference: what later calls about it name. */
  ref: string;
  /** The file's path as the request Workspace shows it. */
  path: string;
  partNumber: number;
  /** The signed link that receives this part (FileOperations.receivePart). */
  token: string;
  /** When the offer ends: the link's expiry or the upload's, whichever comes first. */
  expiresAt: number;
  /** Whether a file exists at the path now (the client may want to confirm an overwrite). */
  fileExists: boolean;
}

/** The offered parts in order, each with a link of its own that reaches that part alone. */
export async function uploadOffersOf(scope: SessionScope, offer: PartsOffer): Promise<UploadOffer[]> {
  const { upload, parts } = offer;
  const path = requestPathIn(scope, upload.path);
  const numbers = Array.from({ length: parts.count }, (_, index) => parts.first + index);
  return Promise.all(numbers.map(async (partNumber) => {
    const link = await scope.deps.links.sign({ kind: 'upload', uploadId: upload.id, part: partNumber }, upload.ref);
    return {
      ref: upload.ref,
      path,
      partNumber,
      token: link.token,
      expiresAt: Math.min(link.expiresAt, upload.expiresAt),
      fileExists: offer.fileExists,
    };
  }));
}
