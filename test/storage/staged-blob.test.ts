import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLargeError } from '../../src/storage/blob-storage.js';
import { LocalDiskStorage } from '../../src/storage/local-disk-storage.js';
import { newStorageKey } from '../../src/storage/storage-keys.js';
import { digestsOnArrival } from '../support/digests.js';

/** Blobs written at offsets (SFTP uploads): in any order, a blob only when finished, nothing left when discarded. */
describe('staged blobs on local disk', () => {
  let root: string;
  let storage: LocalDiskStorage;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-staged-'));
    storage = new LocalDiskStorage(root);
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  const read = async (key: string) => Buffer.concat(await (await storage.read(key)).toArray());
  const tmpFiles = () => fs.readdir(path.join(root, 'tmp')).catch(() => []);

  it('takes writes in order, out of order and with gaps, and finishes with the right bytes and SHA-256', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 123);
    for (const order of ['in order', 'reversed'] as const) {
      const staged = await storage.stage({ maxBytes: data.length });
      const chunks = Array.from({ length: Math.ceil(data.length / 32768) }, (_, i) => i * 32768);
      for (const offset of order === 'in order' ? chunks : [...chunks].reverse()) await staged.write(data.subarray(offset, offset + 32768), offset);
      const key = newStorageKey();
      expect(await staged.finish(key)).toEqual({ size: data.length, ...digestsOnArrival(data) });
      expect((await read(key)).equals(data)).toBe(true);
    }
    const gap = await storage.stage({ maxBytes: 100 });
    await gap.write(Buffer.from('end'), 10);
    const key = newStorageKey();
    const expected = Buffer.concat([Buffer.alloc(10), Buffer.from('end')]);
    expect(await gap.finish(key)).toEqual({ size: 13, ...digestsOnArrival(expected) });
    expect((await read(key)).equals(expected)).toBe(true);
    expect(await tmpFiles()).toEqual([]);
  });

  it('writes a full block while the next gathers, and a rewrite of bytes still on their way lands after them', async () => {
    // OpenSSH's client writes 255 KiB at a time, which does not divide a block.
    const piece = 255 * 1024;
    const data = randomBytes(4 * 1024 * 1024 + 77);
    const staged = await storage.stage({ maxBytes: data.length });
    for (let offset = 0; offset < data.length; offset += piece) await staged.write(data.subarray(offset, offset + piece), offset);
    const patch = randomBytes(5000);
    const at = 3 * 1024 * 1024 + 10;
    await staged.write(patch, at);
    const expected = Buffer.from(data);
    patch.copy(expected, at);
    expect((await staged.read(at - 100, 5200)).equals(expected.subarray(at - 100, at + 5100))).toBe(true);
    const key = newStorageKey();
    expect(await staged.finish(key)).toEqual({ size: data.length, ...digestsOnArrival(expected) });
    expect((await read(key)).equals(expected)).toBe(true);
    expect(await tmpFiles()).toEqual([]);
  });

  it('starts from an existing blob to append, refuses bytes past its limit, and leaves nothing when discarded', async () => {
    const first = newStorageKey();
    await storage.write(first, (await import('node:stream')).Readable.from([Buffer.from('hello')]), { maxBytes: 100 });
    const staged = await storage.stage({ maxBytes: 11 });
    await staged.fill(first);
    await staged.write(Buffer.from(' world'), 5);
    await expect(staged.write(Buffer.from('!'), 11)).rejects.toBeInstanceOf(BlobTooLargeError);
    const key = newStorageKey();
    expect((await staged.finish(key)).size).toBe(11);
    expect((await read(key)).toString()).toBe('hello world');

    const dropped = await storage.stage({ maxBytes: 100 });
    await dropped.write(Buffer.from('never seen'), 0);
    await dropped.discard();
    expect(await tmpFiles()).toEqual([]);
  });

  it('truncates to a shorter size, extends with zeros, reads back what it holds, and keeps the SHA-256 right when writes follow', async () => {
    const staged = await storage.stage({ maxBytes: 100 });
    await staged.write(Buffer.from('abcdefghij'), 0);
    await staged.truncate(4);
    expect(staged.size).toBe(4);
    await staged.truncate(8);
    expect(staged.size).toBe(8);
    await expect(staged.truncate(101)).rejects.toBeInstanceOf(BlobTooLargeError);
    // Written at the old end: the cut bytes before it must count as zeros, not as what was hashed.
    await staged.write(Buffer.from('XY'), 10);
    // Read back as it stands, the gathered bytes included (a client that opened to read and write).
    expect((await staged.read(2, 100)).equals(Buffer.concat([Buffer.from('cd'), Buffer.alloc(6), Buffer.from('XY')]))).toBe(true);
    expect((await staged.read(12, 10)).length).toBe(0);
    const key = newStorageKey();
    const expected = Buffer.concat([Buffer.from('abcd'), Buffer.alloc(6), Buffer.from('XY')]);
    expect(await staged.finish(key)).toEqual({ size: 12, ...digestsOnArrival(expected) });
    expect((await read(key)).equals(expected)).toBe(true);
  });
});
