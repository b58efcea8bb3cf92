import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core.js';
import { FILE_DIGESTS_KIND } from '../../src/files/file-digests.js';
import { claimDueJob, DEFAULT_LEASE_MS } from '../../src/jobs/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { digestsOf } from '../support/digests.js';
import { ManualTimer } from '../support/manual-timer.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { enc, putFile } from './files-support.js';

/** Over INLINE_HASH_BYTES (128 KiB): such a file's MD5, SHA-1 and CRC-32 come after its upload. */
const LARGE = 300_000;
const admin = { key: BOOTSTRAP_KEY };
const NO_OTHER_DIGESTS = { md5: null, sha1: null, crc32: null };

describe.each(testDatabaseTargets())('a large file\'s MD5, SHA-1 and CRC-32, computed after its upload [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());

  const metadata = async (filePath: string) => (await t.api.get(`/file_actions/metadata/${enc(filePath)}`, admin)).body;
  const listed = async (folder: string, name: string) => ((await t.api.get(`/folders/${enc(folder)}`, admin)).body as any[]).find((entry) => entry.path === `${folder}/${name}`);
  const upload = async (filePath: string, bytes: Uint8Array) => {
    const put = await putFile(t, filePath, bytes, admin);
    expect(put.status, JSON.stringify(put.body)).toBe(201);
    return put.body;
  };
  const digestJobs = () => t.database.db.selectFrom('jobs').select(['status', 'attempts', 'dedupe_key', 'last_error']).where('kind', '=', FILE_DIGESTS_KIND).execute();
  const otherNode = () => createCore({
    database: t.database, clock: t.clock, timer: new ManualTimer(),
    config: { headerBrands: ['Service'], logLevel: 'silent', accessLog: false, trustProxy: false, dataDir: t.dataDir, maxUploadBytes: 1 << 30 },
  });
  const storageKeyOf = async (filePath: string) => (await t.database.db.selectFrom('entries').select('storage_key').where('path', '=', filePath).executeTakeFirstOrThrow()).storage_key as string;

  it('answers the SHA-256 at once and the rest once the job has run, once across two nodes, in metadata and the listing', async () => {
    const bytes = randomBytes(LARGE);
    const { sha256 } = digestsOf(bytes);
    expect(await upload('dg/large.bin', bytes)).toMatchObject({ sha256, ...NO_OTHER_DIGESTS });
    expect(await listed('dg', 'large.bin')).toMatchObject({ sha256, ...NO_OTHER_DIGESTS });
    // A small file has every digest at once, and queues nothing.
    const small = Buffer.from('small enough to hash on the way');
    expect(await upload('dg/small.txt', small)).toMatchObject(digestsOf(small));
    expect(await digestJobs()).toEqual([{ status: 'queued', attempts: 0, dedupe_key: `${FILE_DIGESTS_KIND}:${await storageKeyOf('dg/large.bin')}`, last_error: null }]);

    const other = otherNode();
    await Promise.all([t.core.jobs.runDue(), other.jobs.runDue()]);
    expect(await digestJobs()).toEqual([expect.objectContaining({ status: 'done', attempts: 1 })]);
    expect(await metadata('dg/large.bin')).toMatchObject(digestsOf(bytes));
    expect(await listed('dg', 'large.bin')).toMatchObject(digestsOf(bytes));
  });

  it('gives them to every holder of the blob: a copy made while waiting, the version it became, the trash, through a restore', async () => {
    const first = randomBytes(LARGE);
    const second = randomBytes(LARGE + 1);
    await upload('dh/file.bin', first);
    expect((await t.api.post(`/file_actions/copy/${enc('dh/file.bin')}`, { destination: 'dh/copy.bin' }, admin)).status).toBe(201);
    // The first contents become a version, the second are deleted into the trash: all still waiting.
    await upload('dh/file.bin', second);
    expect((await t.api.call('DELETE', `/files/${enc('dh/file.bin')}`, admin)).status).toBe(204);
    expect(await metadata('dh/copy.bin')).toMatchObject(NO_OTHER_DIGESTS);

    while ((await t.core.jobs.runDue()) > 0) { /* until none is due */ }
    expect(await metadata('dh/copy.bin')).toMatchObject(digestsOf(first));
    const trashed = ((await t.api.get('/trash', admin)).body as any[]).find((entry) => entry.path === 'dh/file.bin');
    expect((await t.api.post(`/trash/${trashed.id}/restore`, {}, admin)).status).toBe(200);
    expect(await metadata('dh/file.bin')).toMatchObject(digestsOf(second));
    const versions = (await t.api.get(`/file_versions?path=${encodeURIComponent('dh/file.bin')}`, admin)).body as any[];
    expect(versions).toEqual([expect.objectContaining(digestsOf(first))]);
  });

  it('is taken again by another node once the node that claimed it died, and done once', async () => {
    const bytes = randomBytes(LARGE);
    await upload('di/orphan.bin', bytes);
    const key = await storageKeyOf('di/orphan.bin');
    // A node claims the job and dies before finishing it.
    const claimed = await claimDueJob(t.database.db, 'a-node-that-dies', t.clock.now(), DEFAULT_LEASE_MS);
    expect(claimed?.dedupeKey).toBe(`${FILE_DIGESTS_KIND}:${key}`);
    const other = otherNode();
    await other.jobs.runDue();
    expect(await metadata('di/orphan.bin')).toMatchObject(NO_OTHER_DIGESTS);
    t.clock.advance(DEFAULT_LEASE_MS + 1);
    await other.jobs.runDue();
    expect(await metadata('di/orphan.bin')).toMatchObject(digestsOf(bytes));
    expect((await digestJobs()).find((job) => job.dedupe_key === `${FILE_DIGESTS_KIND}:${key}`)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('records nothing for bytes that are no longer those stored (the job fails), and is done at once for a file deleted for good', async () => {
    const bytes = randomBytes(LARGE);
    await upload('dj/changed.bin', bytes);
    const key = await storageKeyOf('dj/changed.bin');
    // The disk now holds other bytes under the blob's name.
    const blobFile = path.join(t.dataDir, 'files', 'objects', key.slice(0, 2), key);
    await fs.writeFile(blobFile, randomBytes(LARGE));
    await upload('dj/gone.bin', randomBytes(LARGE));
    expect((await t.api.call('DELETE', `/files/${enc('dj/gone.bin')}`, admin)).status).toBe(204);
    const gone = ((await t.api.get('/trash', admin)).body as any[]).find((entry) => entry.path === 'dj/gone.bin');
    expect((await t.api.call('DELETE', `/trash/${gone.id}`, admin)).status).toBe(204);

    await t.core.jobs.runDue();
    expect(await metadata('dj/changed.bin')).toMatchObject(NO_OTHER_DIGESTS);
    const jobs = await digestJobs();
    expect(jobs.find((job) => job.dedupe_key === `${FILE_DIGESTS_KIND}:${key}`)).toMatchObject({ status: expect.stringMatching(/^(queued|failed)$/), last_error: expect.stringContaining('no longer holds the bytes') });
    expect(jobs.filter((job) => job.status === 'done')).toHaveLength(jobs.length - 1);
  });
});
