import type { SFTPWrapper } from 'ssh2';

/**
 * The two SFTP packets ssh2 (1.17) cannot send as a server: a VERSION that names extensions, and
 * an EXTENDED_REPLY. Both go through the session channel as ssh2's own answers do; the
 * channel's window is honoured by ssh2's own queue when it is short.
 */
interface ChannelInternals {
  _protocol: { channelData(id: number, data: Buffer): void };
  _buffer: Buffer[];
  outgoing: { id: number; window: number; state: string };
}

const SSH_FXP_VERSION = 2;
const SSH_FXP_EXTENDED_REPLY = 201;

/** The extensions Atrium answers (operations/extensions.ts), as the VERSION packet names them. */
export const ADVERTISED_EXTENSIONS: ReadonlyArray<[string, string]> = [
  ['posix-rename@openssh.com', '1'],
  ['statvfs@openssh.com', '2'],
  ['limits@openssh.com', '1'],
];

/**
 * Makes the session's VERSION answer name ADVERTISED_EXTENSIONS: clients use posix-rename and
 * statvfs only when the server says it has them. ssh2 sends a bare version 3; that one packet is
 * swapped, on this channel only, as it leaves.
 */
export function advertiseExtensions(sftp: SFTPWrapper): void {
  const channel = sftp as unknown as ChannelInternals;
  const protocol = channel._protocol;
  const original = protocol.channelData;
  protocol.channelData = function (this: unknown, id: number, data: Buffer) {
    if (id === channel.outgoing.id && data.length === 9 && data[4] === SSH_FXP_VERSION) {
      protocol.channelData = original;
      const extended = versionPacket();
      // ssh2 counted the bare packet against the window; the longer one is counted here.
      channel.outgoing.window = Math.max(0, channel.outgoing.window - (extended.length - data.length));
      return original.call(this, id, extended);
    }
    return original.call(this, id, data);
  };
}

function versionPacket(): Buffer {
  const parts: Buffer[] = [Buffer.from([SSH_FXP_VERSION, 0, 0, 0, 3])];
  for (const [name, value] of ADVERTISED_EXTENSIONS) parts.push(sshString(name), sshString(value));
  return framed(Buffer.concat(parts));
}

/** Sends an EXTENDED_REPLY to request `id` with `body` as its data. */
export function sendExtendedReply(sftp: SFTPWrapper, id: number, body: Buffer): void {
  const channel = sftp as unknown as ChannelInternals;
  const header = Buffer.alloc(5);
  header[0] = SSH_FXP_EXTENDED_REPLY;
  header.writeUInt32BE(id, 1);
  const packet = framed(Buffer.concat([header, body]));
  if (channel.outgoing.state !== 'open') return;
  if (channel._buffer.length === 0 && channel.outgoing.window >= packet.length) {
    channel.outgoing.window -= packet.length;
    channel._protocol.channelData(channel.outgoing.id, packet);
  } else {
    // Behind answers already waiting for window: it goes out after them, in order.
    channel._buffer.push(packet);
  }
}

export function sshString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function framed(payload: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(payload.length);
  return Buffer.concat([length, payload]);
}

/** Reads the SSH strings of an extension request's data. */
export function readStrings(data: Buffer | undefined, count: number): string[] | undefined {
  if (data === undefined) return undefined;
  const strings: string[] = [];
  let position = 0;
  for (let i = 0; i < count; i += 1) {
    if (position + 4 > data.length) return undefined;
    const length = data.readUInt32BE(position);
    position += 4;
    if (position + length > data.length) return undefined;
    strings.push(data.toString('utf8', position, position + length));
    position += length;
  }
  return strings;
}
