import type { PartOffer } from './uploads.js';
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

export async function uploadOfferOf(scope: SessionScope, offer: PartOffer): Promise<UploadOffer> {
  const { upload, partNumber } = offer;
  const link = await scope.deps.links.sign({ kind: 'upload', uploadId: upload.id, part: partNumber }, upload.ref);
  return {
    ref: upload.ref,
    path: requestPathIn(scope, upload.path),
    partNumber,
    token: link.token,
    expiresAt: Math.min(link.expiresAt, upload.expiresAt),
    fileExists: offer.fileExists,
  };
}
