import type { SFTPWrapper } from 'ssh2';
import ssh2 from 'ssh2';
import type { FileSession } from '../../files/index.js';
import { MAX_HANDLES_PER_SESSION } from '../handles.js';
import { MAX_READ_BYTES } from '../limits.js';
import { sessionPathOf } from './sftp-paths.js';
import { readStrings, sendExtendedReply } from './wire.js';

// ssh2 is CommonJS: its values come from the default export under Node's ESM.
const { utils } = ssh2;

const { STATUS_CODE } = utils.sftp;
const BLOCK = 4096;
/** statvfs has no notion of a quota here: the figures say "plenty" so clients do not refuse to upload. */
const PLENTY_BLOCKS = 2n ** 40n;

/**
 * The OpenSSH extensions Atrium answers (advertised in wire.ts); false for any other, which is
 * then unsupported.
 * - posix-rename@openssh.com: a rename that replaces a file at the destination, as POSIX
 *   rename(2) does (OpenSSH's `rename` uses it), in one transaction with the move; the caller
 *   needs the right to delete what it replaces. A folder at the destination is not replaced
 *   (rename(2) replaces only an empty one; Atrium keeps it simple and refuses).
 * - statvfs@openssh.com: the path must be visible; the figures are nominal (docs/sftp.md).
 * - limits@openssh.com: this server's limits, which OpenSSH's client then uses to size its reads
 *   and writes (larger writes than its default 32 KiB: fewer requests for the same bytes).
 */
export async function handleExtension(sftp: SFTPWrapper, files: FileSession, id: number, name: string, data: Buffer | undefined, workingFolder: string): Promise<boolean> {
  switch (name) {
    case 'posix-rename@openssh.com': {
      const paths = readStrings(data, 2);
      if (paths === undefined) {
        sftp.status(id, STATUS_CODE.BAD_MESSAGE, 'Malformed request.');
        return true;
      }
      const [from, to] = [sessionPathOf(paths[0] as string, workingFolder), sessionPathOf(paths[1] as string, workingFolder)];
      const source = await files.stat(from);
      const target = await files.stat(to).catch(() => undefined);
      if (target?.type === 'directory' || (target !== undefined && source.type === 'directory')) {
        sftp.status(id, STATUS_CODE.FAILURE, 'Something already exists at the destination path.');
        return true;
      }
      await files.move(from, to, { overwrite: target !== undefined });
      sftp.status(id, STATUS_CODE.OK);
      return true;
    }
    case 'statvfs@openssh.com': {
      const path = readStrings(data, 1);
      if (path === undefined) {
        sftp.status(id, STATUS_CODE.BAD_MESSAGE, 'Malformed request.');
        return true;
      }
      await files.stat(sessionPathOf(path[0] as string, workingFolder));
      sendExtendedReply(sftp, id, statvfsBody());
      return true;
    }
    case 'limits@openssh.com':
      sendExtendedReply(sftp, id, limitsBody());
      return true;
    default:
      return false;
  }
}

/** The paths an extension request names (as the client wrote them), so it is ordered with the other requests on them. */
export function pathsOfExtension(name: string, data: Buffer | undefined): string[] {
  if (name === 'posix-rename@openssh.com') return readStrings(data, 2) ?? [];
  if (name === 'statvfs@openssh.com') return readStrings(data, 1) ?? [];
  return [];
}

/** SFTP packets this server takes (ssh2 refuses longer ones), leaving room for a WRITE's header. */
const MAX_PACKET_BYTES = 256 * 1024;

/** max-packet-length, max-read-length, max-write-length, max-open-handles: four uint64. */
function limitsBody(): Buffer {
  const values = [MAX_PACKET_BYTES, MAX_READ_BYTES, MAX_PACKET_BYTES - 1024, MAX_HANDLES_PER_SESSION];
  const body = Buffer.alloc(values.length * 8);
  values.forEach((value, i) => body.writeBigUInt64BE(BigInt(value), i * 8));
  return body;
}

/** bsize, frsize, blocks, bfree, bavail, files, ffree, favail, fsid, flag, namemax: eleven uint64. */
function statvfsBody(): Buffer {
  const values = [BigInt(BLOCK), BigInt(BLOCK), PLENTY_BLOCKS, PLENTY_BLOCKS, PLENTY_BLOCKS, PLENTY_BLOCKS, PLENTY_BLOCKS, PLENTY_BLOCKS, 0n, 0n, 255n];
  const body = Buffer.alloc(values.length * 8);
  values.forEach((value, i) => body.writeBigUInt64BE(value, i * 8));
  return body;
}
