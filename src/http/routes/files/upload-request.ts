import type { Static } from 'typebox';
import { errors } from '../../../errors/catalogue.js';
import type { FileSession, UploadOffer } from '../../../files/index.js';
import { countValue, flagValue, type BeginUploadBody } from './schemas.js';

/**
 * The begin-upload parameters the Files.com SDKs send (File.beginUpload, and POST /files/<path>
 * with action=put), turned into the file session's calls. Each is honoured or refused by name,
 * never dropped (docs/files.md, "Parameters"):
 * - without `ref`, a new upload begins and its first `parts` parts are offered; `part` without
 *   `ref` is refused, since a part belongs to an upload the client must name;
 * - with `ref`, parts `part` to `part + parts - 1` of that upload are offered, and nothing new is
 *   begun (an unknown, foreign, ended or expired ref is the session's `file-upload-not-found`);
 * - `size` is checked against the upload limit; `mkdir_parents` is decided when the upload begins;
 * - `restart` (resuming at a byte offset) and `with_rename` (renaming instead of overwriting) are
 *   not offered: only the values that ask for neither are accepted.
 */
export async function offeredParts(session: FileSession, path: string, body: Static<typeof BeginUploadBody>): Promise<UploadOffer[]> {
  if (body.restart !== undefined && body.restart !== 0) {
    throw errors.paramsInvalid({ restart: ['must be 0: an upload is not resumed at a byte offset; continue it with ref and part, or begin again'] });
  }
  if (flagValue(body.with_rename, false)) {
    throw errors.paramsInvalid({ with_rename: ['must be false: an upload replaces the file at its path (ask_about_overwrites says whether one exists), it is never renamed'] });
  }
  const count = body.parts ?? 1;
  if (body.ref === undefined) {
    if (body.part !== undefined) throw errors.paramsRequired({ ref: ['is required with part: it names the upload the part belongs to'] });
    return session.beginUpload(path, { mkdirParents: flagValue(body.mkdir_parents, true), parts: count, declaredSize: countValue(body.size, 'size') });
  }
  return session.offerParts(path, body.ref, { first: body.part ?? 1, count, declaredSize: countValue(body.size, 'size') });
}
