import type { Client, ClientChannel } from 'ssh2';

/** SFTP v3 packet types (draft-ietf-secsh-filexfer-02), requests and answers. */
const REQUEST = { INIT: 1, OPEN: 3, CLOSE: 4, WRITE: 6, LSTAT: 7, FSTAT: 8, SETSTAT: 9, OPENDIR: 11, READDIR: 12, STAT: 17 } as const;
const ANSWER = { VERSION: 2, STATUS: 101, HANDLE: 102, DATA: 103, NAME: 104, ATTRS: 105 } as const;
const ATTR = { SIZE: 0x1, UIDGID: 0x2, PERMISSIONS: 0x4, ACMODTIME: 0x8, EXTENDED: 0x80000000 } as const;

export interface RawAttributes {
  size?: number;
  mode?: number;
  mtime?: number;
}

export type RawAnswer =
  | { type: 'status'; code: number; message: string }
  | { type: 'handle'; handle: Buffer }
  | { type: 'data'; data: Buffer }
  | { type: 'name'; names: { filename: string; attrs: RawAttributes }[] }
  | { type: 'attrs'; attrs: RawAttributes };

/**
 * An SFTP channel spoken packet by packet, for sending requests exactly as a given client does:
 * `send` writes several requests in one piece, as sshfs's requests reach the server when ssh
 * carries them in one channel-data packet (ssh2's own SFTP client sends each request alone, and
 * so never shows what happens when the server gets several in the same moment).
 */
export class RawSftpChannel {
  private readonly answers = new Map<number, (answer: RawAnswer) => void>();
  private readonly arrived = new Map<number, RawAnswer>();
  private pending = Buffer.alloc(0);
  private nextId = 1;
  /** Request ids in the order their answers arrived. */
  readonly answeredInOrder: number[] = [];

  private constructor(private readonly channel: ClientChannel) {
    channel.on('data', (chunk: Buffer) => this.take(chunk));
  }

  /** Opens the sftp subsystem on a signed-in client and exchanges versions (v3). */
  static async open(client: Client): Promise<RawSftpChannel> {
    const channel = await new Promise<ClientChannel>((resolve, reject) => client.subsys('sftp', (error, stream) => (error ? reject(error) : resolve(stream))));
    const raw = new RawSftpChannel(channel);
    const version = new Promise<void>((resolve) => raw.answers.set(0, () => resolve()));
    channel.write(packet(REQUEST.INIT, [uint32(3)]));
    await version;
    return raw;
  }

  /** A request's bytes and the id its answer will carry. */
  request(kind: keyof typeof REQUEST, ...fields: Buffer[]): { id: number; bytes: Buffer } {
    const id = this.nextId++;
    return { id, bytes: packet(REQUEST[kind], [uint32(id), ...fields]) };
  }

  /** Sends the requests in one write, so they reach the server together; answers their ids. */
  send(...requests: { id: number; bytes: Buffer }[]): number[] {
    this.channel.write(Buffer.concat(requests.map((request) => request.bytes)));
    return requests.map((request) => request.id);
  }

  /** The answer to request `id`. */
  answer(id: number): Promise<RawAnswer> {
    const arrived = this.arrived.get(id);
    if (arrived !== undefined) {
      this.arrived.delete(id);
      return Promise.resolve(arrived);
    }
    return new Promise((resolve) => this.answers.set(id, resolve));
  }

  /** Sends one request and waits for its answer. */
  async ask(kind: keyof typeof REQUEST, ...fields: Buffer[]): Promise<RawAnswer> {
    const [id] = this.send(this.request(kind, ...fields));
    return this.answer(id as number);
  }

  close(): void {
    this.channel.close();
  }

  private take(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 4 && this.pending.length >= 4 + this.pending.readUInt32BE(0)) {
      const length = this.pending.readUInt32BE(0);
      const body = this.pending.subarray(4, 4 + length);
      this.pending = this.pending.subarray(4 + length);
      const type = body[0];
      if (type === ANSWER.VERSION) {
        this.deliver(0, { type: 'status', code: 0, message: 'version' });
        continue;
      }
      const reader = new Reader(body.subarray(5));
      this.deliver(body.readUInt32BE(1), parseAnswer(type as number, reader));
    }
  }

  private deliver(id: number, answer: RawAnswer): void {
    this.answeredInOrder.push(id);
    const waiting = this.answers.get(id);
    this.answers.delete(id);
    if (waiting === undefined) this.arrived.set(id, answer);
    else waiting(answer);
  }
}

function parseAnswer(type: number, reader: Reader): RawAnswer {
  switch (type) {
    case ANSWER.STATUS:
      return { type: 'status', code: reader.uint32(), message: reader.string().toString() };
    case ANSWER.HANDLE:
      return { type: 'handle', handle: reader.string() };
    case ANSWER.DATA:
      return { type: 'data', data: reader.string() };
    case ANSWER.NAME:
      return {
        type: 'name',
        names: Array.from({ length: reader.uint32() }, () => {
          const filename = reader.string().toString();
          reader.string();
          return { filename, attrs: reader.attrs() };
        }),
      };
    case ANSWER.ATTRS:
      return { type: 'attrs', attrs: reader.attrs() };
    default:
      throw new Error(`unexpected SFTP answer type ${type}`);
  }
}

class Reader {
  private position = 0;
  constructor(private readonly bytes: Buffer) {}

  uint32(): number {
    const value = this.bytes.readUInt32BE(this.position);
    this.position += 4;
    return value;
  }

  uint64(): number {
    const value = Number(this.bytes.readBigUInt64BE(this.position));
    this.position += 8;
    return value;
  }

  string(): Buffer {
    const length = this.uint32();
    const value = this.bytes.subarray(this.position, this.position + length);
    this.position += length;
    return value;
  }

  attrs(): RawAttributes {
    const flags = this.uint32();
    const attrs: RawAttributes = {};
    if (flags & ATTR.SIZE) attrs.size = this.uint64();
    if (flags & ATTR.UIDGID) this.position += 8;
    if (flags & ATTR.PERMISSIONS) attrs.mode = this.uint32();
    if (flags & ATTR.ACMODTIME) {
      this.uint32();
      attrs.mtime = this.uint32();
    }
    if (flags & ATTR.EXTENDED) {
      for (let count = this.uint32(); count > 0; count -= 1) {
        this.string();
        this.string();
      }
    }
    return attrs;
  }
}

function packet(type: number, fields: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from([type]), ...fields]);
  return Buffer.concat([uint32(body.length), body]);
}

export function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

export function uint64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
}

export function sftpString(value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  return Buffer.concat([uint32(bytes.length), bytes]);
}

/** An empty attribute block (flags 0), as OPEN and MKDIR carry when the client sets nothing. */
export const NO_ATTRIBUTES = uint32(0);
