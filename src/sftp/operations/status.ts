import ssh2 from 'ssh2';
import { AtriumError } from '../../errors/atrium-error.js';

// ssh2 is CommonJS: its values come from the default export under Node's ESM.
const { utils } = ssh2;

const { STATUS_CODE } = utils.sftp;

/** An SFTP status to answer, with its message for people. */
export interface SftpStatus {
  code: number;
  message: string;
}

/**
 * Every refusal and failure of a file operation, as SFTP says it (the one place the front door maps
 * errors): absent and invisible alike are SSH_FX_NO_SUCH_FILE, so existence cannot be probed; a
 * refusal the caller may know about is SSH_FX_PERMISSION_DENIED; the rest (a name taken, a folder
 * not empty, a path refused, a limit) is SSH_FX_FAILURE with the error's message, since SFTP v3
 * has no finer codes. Anything not an AtriumError is an internal failure, its details not told.
 */
export function statusOf(error: unknown): SftpStatus {
  if (!(error instanceof AtriumError)) return { code: STATUS_CODE.FAILURE, message: 'Internal server error.' };
  switch (error.family) {
    case 'not-found':
      return { code: STATUS_CODE.NO_SUCH_FILE, message: error.message };
    case 'not-authorized':
    case 'not-authenticated':
      return { code: STATUS_CODE.PERMISSION_DENIED, message: error.message };
    default:
      return { code: STATUS_CODE.FAILURE, message: error.message };
  }
}

/** A request this server does not do (symbolic links, unknown extensions). */
export const UNSUPPORTED: SftpStatus = { code: STATUS_CODE.OP_UNSUPPORTED, message: 'Not supported by this server.' };
