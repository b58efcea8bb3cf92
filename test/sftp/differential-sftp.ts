import ssh2, { type SFTPWrapper } from 'ssh2';
import type { Operation, Outcome } from '../webdav/differential-doors.js';

const { STATUS_CODE } = ssh2.utils.sftp;

/**
 * The SFTP door for the differential test (differential.property.test.ts): one operation through
 * the ssh2 client, as the signed-in user, and its outcome in the vocabulary REST's side uses
 * (test/webdav/differential-doors.ts): `ok`, `not-found` (SSH_FX_NO_SUCH_FILE), `forbidden`
 * (SSH_FX_PERMISSION_DENIED), or `failure` (SSH_FX_FAILURE, SFTP v3's one code for everything else).
 */
export async function viaSftp(sftp: SFTPWrapper, op: Operation): Promise<Outcome> {
  const slash = (path: string) => `/${path}`;
  const settle = <T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void) =>
    new Promise<{ error: (Error & { code?: number }) | undefined; value: T | undefined }>((resolve) => run((error, value) => resolve({ error: error ?? undefined, value })));
  switch (op.kind) {
    case 'list': {
      const { error, value } = await settle<{ filename: string }[]>((done) => sftp.readdir(slash(op.path), done));
      return error !== undefined ? outcomeOf(error) : { outcome: 'ok', seen: (value ?? []).map((entry) => entry.filename).sort() };
    }
    case 'read': {
      const { error, value } = await settle<Buffer>((done) => sftp.readFile(slash(op.path), done));
      return error !== undefined ? outcomeOf(error) : { outcome: 'ok', seen: (value as Buffer).toString() };
    }
    case 'write':
      return outcomeOf((await settle((done) => sftp.writeFile(slash(op.path), op.content, done))).error);
    case 'mkdir':
      return outcomeOf((await settle((done) => sftp.mkdir(slash(op.path), done))).error);
    case 'delete':
      return outcomeOf((await settle((done) => sftp.unlink(slash(op.path), done))).error);
    case 'move':
      return outcomeOf((await settle((done) => sftp.rename(slash(op.from), slash(op.to), done))).error);
    case 'copy':
      throw new Error('SFTP has no copy');
  }
}

function outcomeOf(error: (Error & { code?: number }) | undefined): Outcome {
  if (error === undefined) return { outcome: 'ok' };
  if (error.code === STATUS_CODE.NO_SUCH_FILE) return { outcome: 'not-found' };
  if (error.code === STATUS_CODE.PERMISSION_DENIED) return { outcome: 'forbidden' };
  if (error.code === STATUS_CODE.FAILURE) return { outcome: 'failure' };
  return { outcome: `SFTP ${error.code} ${error.message}` };
}

/**
 * Whether the doors agree: both allowed (and the same listed or read; a listing compares names,
 * as SFTP gives them) or both refused the same way. Not-found and forbidden must match exactly
 * (the same session call decided both); every other refusal REST names (a name taken, a missing
 * parent, a folder read as a file, a move into itself) is SFTP's one SSH_FX_FAILURE.
 */
export function agreeSftp(rest: Outcome, sftp: Outcome, op: Operation): boolean {
  if (rest.outcome === 'ok' || sftp.outcome === 'ok') {
    if (rest.outcome !== sftp.outcome) return false;
    const restSeen = op.kind === 'list' && Array.isArray(rest.seen) ? rest.seen.map((path) => path.slice(path.lastIndexOf('/') + 1)).sort() : rest.seen;
    return JSON.stringify(restSeen) === JSON.stringify(sftp.seen);
  }
  if (rest.outcome === 'not-found' || rest.outcome === 'forbidden' || sftp.outcome === 'not-found' || sftp.outcome === 'forbidden') return rest.outcome === sftp.outcome;
  return sftp.outcome === 'failure';
}
