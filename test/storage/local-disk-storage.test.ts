import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer as bytes, text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobTooLargeError, RunClosedError } from '../../src/storage/blob-storage.js';
import { LocalDiskStorage } from '../../src/storage/local-disk-storage.js';
import { newStorageKey } from '../../src/storage/storage-keys.js';
import { digestsOnArrival } from '../support/digests.js';

describe('local-disk blob storage', () => {
  let root: string;
  let storage: LocalDiskStorage;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-storage-'));
    storage = new LocalDiskStorage(root);
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  const filesIn = async (dir: string) =>
    (await fs.readdir(path.join(root, dir), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).length;

  it('writes a stream and reads it back whole or in part, with its size and SHA-256', async () => {
    const key = newStorageKey();
    const written = await storage.write(key, Readable.from(['hello ', 'blob']), { maxBytes: 100 });
    expect(written).toEqual({ size: 10, ...digestsOnArrival('hello blob') });
    expect(await text(await storage.read(key))).toBe('hello blob');
    expect(await text(await storage.read(key, { start: 6, end: 9 }))).toBe('blob');
    expect(await text(await storage.read(key, { start: 6, end: 99 }))).toBe('blob');
    expect(await filesIn('tmp')).toBe(0);
  });

  it('writes a blob larger than its early flushes, and one not flushed at all that flush makes durable later', async () => {
    const big = Buffer.alloc(70 * 1024 * 1024, 7);
    const chunks = Array.from({ length: 70 }, (_, i) => big.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024));
    for (const durable of [true, false]) {
      const key = newStorageKey();
      const written = await storage.write(key, Readable.from(chunks), { maxBytes: big.length, durable });
      expect(written).toEqual({ size: big.length, ...digestsOnArrival(big) });
      expect((await fs.stat(path.join(root, 'objects', key.slice(0, 2), key))).size).toBe(big.length);
      await storage.flush(key);
    }
    expect(await filesIn('tmp')).toBe(0);
    await expect(storage.flush(newStorageKey())).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('stores an empty blob', async () => {
    const key = newStorageKey();
    expect(await storage.write(key, Readable.from([]), { maxBytes: 0 })).toMatchObject({ size: 0 });
    expect(await text(await storage.read(key))).toBe('');
  });

  it('refuses more than maxBytes and keeps nothing', async () => {
    const key = newStorageKey();
    await expect(storage.write(key, Readable.from([Buffer.alloc(60), Buffer.alloc(60)]), { maxBytes: 100 })).rejects.toBeInstanceOf(BlobTooLargeError);
    await expect(storage.read(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await filesIn('tmp')).toBe(0);
    expect(await filesIn('objects')).toBe(0);
  });

  it('keeps nothing when the source fails half way', async () => {
    const key = newStorageKey();
    const failing = new Readable({ read() {} });
    failing.push(Buffer.alloc(1000));
    // Fails after the first bytes are being written, not before the write starts.
    setTimeout(() => failing.destroy(new Error('client went away')), 10);
    await expect(storage.write(key, failing, { maxBytes: 1e6 })).rejects.toThrow('client went away');
    expect(await filesIn('tmp')).toBe(0);
    expect(await filesIn('objects')).toBe(0);
  });

  it('keeps nothing, and stays up, when the source fails before the write has begun reading it', async () => {
    // The write is still preparing its file when the source fails: nobody reads the source yet.
    const key = newStorageKey();
    const failing = new Readable({ read() {} });
    const writing = storage.write(key, failing, { maxBytes: 1e6 });
    failing.destroy(new Error('client went away early'));
    await expect(writing).rejects.toThrow('client went away early');
    expect(await filesIn('tmp')).toBe(0);
    expect(await filesIn('objects')).toBe(0);
    const run = await storage.beginRun();
    const failingSlice = new Readable({ read() {} });
    const appending = run.append(failingSlice, { maxBytes: 1e6 });
    failingSlice.destroy(new Error('channel closed early'));
    await expect(appending).rejects.toThrow('channel closed early');
    await run.discard();
  });

  it('hashes many writes at once, each in its own order, whatever their chunks\' sizes', async () => {
    // Chunks of odd sizes cross the writer's blocks of a MiB at every offset.
    const contents = Array.from({ length: 6 }, (_, i) => Buffer.from(Buffer.alloc(3 * 1024 * 1024 + 12_345 * i, i + 1).map((byte, at) => (byte + at) % 251)));
    const sizes = [1, 4093, 65_536, 1024 * 1024 + 3, 777_777];
    const written = await Promise.all(contents.map(async (content, i) => {
      const chunks: Buffer[] = [];
      for (let at = 0, n = 0; at < content.length; n += 1) {
        const size = sizes[(n + i) % sizes.length] as number;
        chunks.push(content.subarray(at, at + size));
        at += size;
      }
      const key = newStorageKey();
      return { key, written: await storage.write(key, Readable.from(chunks), { maxBytes: content.length, durable: i % 2 === 0 }) };
    }));
    for (const [i, { key, written: blob }] of written.entries()) {
      const content = contents[i] as Buffer;
      expect(blob).toEqual({ size: content.length, ...digestsOnArrival(content) });
      expect((await fs.readFile(path.join(root, 'objects', key.slice(0, 2), key))).equals(content)).toBe(true);
    }
    expect(await filesIn('tmp')).toBe(0);
  });

  it('refuses a body one byte over the limit past several blocks, and keeps nothing', async () => {
    const key = newStorageKey();
    const chunks = Array.from({ length: 5 }, () => Buffer.alloc(1024 * 1024 - 1, 1));
    await expect(storage.write(key, Readable.from(chunks), { maxBytes: 5 * (1024 * 1024 - 1) - 1 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await filesIn('tmp')).toBe(0);
    expect(await filesIn('objects')).toBe(0);
    const exact = newStorageKey();
    expect(await storage.write(exact, Readable.from(chunks), { maxBytes: 5 * (1024 * 1024 - 1) })).toMatchObject({ size: 5 * (1024 * 1024 - 1) });
  });

  it('appends writes to a run, each a slice readable by its key, and the run becomes a blob with the SHA-256 of all of them', async () => {
    const run = await storage.beginRun();
    const pieces = [Buffer.alloc(1024 * 1024 + 5, 1), Buffer.from('tail'), Buffer.alloc(0)];
    const slices = [];
    for (const piece of pieces) slices.push(await run.append(Readable.from([piece]), { maxBytes: 2 ** 30 }));
    expect(run.size).toBe(1024 * 1024 + 9);
    expect(slices.map((slice) => [slice.size, slice.sha256])).toEqual(pieces.map((piece) => [piece.length, createHash('sha256').update(piece).digest('hex')]));
    // A slice is a part of an upload, checked by its SHA-256 only: its other digests are not computed.
    expect(slices.map((slice) => [slice.md5, slice.sha1, slice.crc32])).toEqual(pieces.map(() => [null, null, null]));
    for (const [i, slice] of slices.entries()) expect((await bytes(await storage.read(slice.storageKey))).equals(pieces[i] as Buffer)).toBe(true);
    expect(await text(await storage.read(slices[1]!.storageKey, { start: 1, end: 2 }))).toBe('ai');
    expect(await filesIn('objects')).toBe(0);

    const key = newStorageKey();
    const whole = Buffer.concat(pieces);
    expect(await run.finish(key)).toEqual({ size: whole.length, ...digestsOnArrival(whole) });
    expect((await fs.readFile(path.join(root, 'objects', key.slice(0, 2), key))).equals(whole)).toBe(true);
    await expect(run.append(Readable.from(['more']), { maxBytes: 10 })).rejects.toBeInstanceOf(RunClosedError);
    // The slices stay readable until one of them is deleted, which removes the run; the blob stays.
    expect(await text(await storage.read(slices[1]!.storageKey))).toBe('tail');
    await storage.delete(slices[0]!.storageKey);
    await expect(storage.read(slices[1]!.storageKey)).rejects.toBeInstanceOf(BlobNotFoundError);
    await storage.delete(slices[1]!.storageKey);
    expect((await fs.readFile(path.join(root, 'objects', key.slice(0, 2), key))).equals(whole)).toBe(true);
    expect(await filesIn('runs')).toBe(0);
  });

  it('keeps the slices before a failed write, takes no more writes after it, and cannot become a blob', async () => {
    const broken = await storage.beginRun();
    const kept = await broken.append(Readable.from(['kept']), { maxBytes: 100 });
    await expect(broken.append(Readable.from([Buffer.alloc(3 * 1024 * 1024)]), { maxBytes: 2 * 1024 * 1024 })).rejects.toBeInstanceOf(BlobTooLargeError);
    await expect(broken.append(Readable.from(['late']), { maxBytes: 100 })).rejects.toBeInstanceOf(RunClosedError);
    await expect(broken.finish(newStorageKey())).rejects.toThrow();
    expect(await text(await storage.read(kept.storageKey))).toBe('kept');
    expect(await filesIn('objects')).toBe(0);
    await broken.close();
    expect(await text(await storage.read(kept.storageKey))).toBe('kept');
    await storage.delete(kept.storageKey);

    // A discarded run is gone at once; a slice cut short by a lost tail reads short.
    const discarded = await storage.beginRun();
    await discarded.append(Readable.from(['x']), { maxBytes: 10 });
    await discarded.discard();
    expect(await filesIn('runs')).toBe(0);
    const cut = await storage.beginRun();
    const slice = await cut.append(Readable.from(['abcdef']), { maxBytes: 10 });
    await fs.truncate(path.join(root, 'runs', (await fs.readdir(path.join(root, 'runs')))[0] as string), 3);
    expect(await text(await storage.read(slice.storageKey))).toBe('abc');
    await cut.discard();
    expect(await filesIn('tmp')).toBe(0);
    expect(await filesIn('runs')).toBe(0);
  });

  it('copies into an independent blob, and deletes idempotently', async () => {
    const [a, b] = [newStorageKey(), newStorageKey()];
    await storage.write(a, Readable.from(['original']), { maxBytes: 100 });
    await storage.copy(a, b);
    await storage.delete(a);
    await storage.delete(a);
    expect(await text(await storage.read(b))).toBe('original');
    await expect(storage.copy(a, newStorageKey())).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await filesIn('tmp')).toBe(0);
  });

  it('refuses any key that is not one of its own random ids', async () => {
    for (const key of ['../../etc/passwd', 'ABCDEF', '', `${newStorageKey()}/x`, newStorageKey().toUpperCase()]) {
      await expect(storage.read(key), key).rejects.toThrow(TypeError);
      await expect(storage.write(key, Readable.from(['x']), { maxBytes: 10 }), key).rejects.toThrow(TypeError);
    }
  });

  it('removes temporary files a crash left, once they are old', async () => {
    await fs.mkdir(path.join(root, 'tmp'), { recursive: true });
    const old = path.join(root, 'tmp', 'old.tmp');
    const fresh = path.join(root, 'tmp', 'fresh.tmp');
    await fs.writeFile(old, 'x');
    await fs.writeFile(fresh, 'x');
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    await fs.utimes(old, hourAgo, hourAgo);
    // Runs are kept as long as an upload may refer to them: a day and more here.
    const run = await storage.beginRun();
    await run.append(Readable.from(['part']), { maxBytes: 10 });
    const [runFile] = await fs.readdir(path.join(root, 'runs'));
    const [dayOld, twoDaysOld] = [path.join(root, 'runs', 'day-old.run'), path.join(root, 'runs', 'two-days-old.run')];
    await fs.writeFile(dayOld, 'x');
    await fs.writeFile(twoDaysOld, 'x');
    await fs.utimes(dayOld, new Date(Date.now() - 24 * 3600_000), new Date(Date.now() - 24 * 3600_000));
    await fs.utimes(twoDaysOld, new Date(Date.now() - 48 * 3600_000), new Date(Date.now() - 48 * 3600_000));
    expect(await storage.removeStaleTemporaryFiles(Date.now(), 3600_000, 25 * 3600_000)).toBe(2);
    expect(await fs.readdir(path.join(root, 'tmp'))).toEqual(['fresh.tmp']);
    expect((await fs.readdir(path.join(root, 'runs'))).sort()).toEqual([runFile, 'day-old.run'].sort());
    await run.discard();
  });
});
