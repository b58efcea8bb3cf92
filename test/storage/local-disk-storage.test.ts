import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobTooLargeError } from '../../src/storage/blob-storage.js';
import { LocalDiskStorage } from '../../src/storage/local-disk-storage.js';
import { newStorageKey } from '../../src/storage/storage-keys.js';

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
    expect(written).toEqual({ size: 10, sha256: createHash('sha256').update('hello blob').digest('hex') });
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
      expect(written).toEqual({ size: big.length, sha256: createHash('sha256').update(big).digest('hex') });
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
    setTimeout(() => failing.destroy(new Error('client went away')), 10);
    await expect(storage.write(key, failing, { maxBytes: 1e6 })).rejects.toThrow('client went away');
    expect(await filesIn('tmp')).toBe(0);
    expect(await filesIn('objects')).toBe(0);
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
      expect(blob).toEqual({ size: content.length, sha256: createHash('sha256').update(content).digest('hex') });
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

  it('appends writes to a run, which becomes a blob with the SHA-256 of all of them; a failed write makes it unusable', async () => {
    const run = await storage.beginRun();
    const pieces = [Buffer.alloc(1024 * 1024 + 5, 1), Buffer.from('tail'), Buffer.alloc(0)];
    for (const piece of pieces) await storage.write(newStorageKey(), Readable.from([piece]), { maxBytes: 2 ** 30, durable: false, appendTo: run });
    expect(run.size).toBe(1024 * 1024 + 9);
    const key = newStorageKey();
    const whole = Buffer.concat(pieces);
    expect(await run.finish(key)).toEqual({ size: whole.length, sha256: createHash('sha256').update(whole).digest('hex') });
    expect((await fs.readFile(path.join(root, 'objects', key.slice(0, 2), key))).equals(whole)).toBe(true);

    const broken = await storage.beginRun();
    await storage.write(newStorageKey(), Readable.from(['kept']), { maxBytes: 100, durable: false, appendTo: broken });
    await expect(storage.write(newStorageKey(), Readable.from([Buffer.alloc(3 * 1024 * 1024)]), { maxBytes: 2 * 1024 * 1024, appendTo: broken })).rejects.toBeInstanceOf(BlobTooLargeError);
    await expect(broken.finish(newStorageKey())).rejects.toThrow();
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
    // An upload's run a crash left, and one still written to.
    const run = await storage.beginRun();
    await storage.write(newStorageKey(), Readable.from(['part']), { maxBytes: 10, durable: false, appendTo: run });
    const [runFile] = await fs.readdir(path.join(root, 'runs'));
    const oldRun = path.join(root, 'runs', 'old-run.tmp');
    await fs.writeFile(oldRun, 'x');
    await fs.utimes(oldRun, hourAgo, hourAgo);
    expect(await storage.removeStaleTemporaryFiles(Date.now(), 3600_000)).toBe(2);
    expect(await fs.readdir(path.join(root, 'tmp'))).toEqual(['fresh.tmp']);
    expect(await fs.readdir(path.join(root, 'runs'))).toEqual([runFile]);
    await run.discard();
  });
});
