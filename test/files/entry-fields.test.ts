import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { digestsOf, digestsOnArrival } from '../support/digests.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { enc, expectError, grantAsSite, memberOf, putFile, seed, type Member } from './files-support.js';

describe.each(testDatabaseTargets())('the fields of a file entry [$name]', (target) => {
  let t: TestApp;
  let member: Member;
  let reader: Member;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seed(t, { 'ef/': '' });
    [member, reader] = await Promise.all([memberOf(t), memberOf(t)]);
    await grantAsSite(t, { path: 'ef', user_id: member.id, permission: 'full' });
    await grantAsSite(t, { path: 'ef', user_id: reader.id, permission: 'readonly' });
  });
  afterAll(() => t.close());

  const action = (path: string, body: Record<string, unknown>, key = member.key) => t.api.post(`/files/${enc(path)}`, body, { key });
  const metadata = (path: string, key = member.key) => t.api.get(`/file_actions/metadata/${enc(path)}`, { key });
  const listed = async (folder: string, name: string) => {
    const response = await t.api.get(`/folders/${enc(folder)}`, { key: member.key });
    expect(response.status).toBe(200);
    return (response.body as any[]).find((entry) => entry.path === `${folder}/${name}`);
  };

  /** An upload in parts; the parts are sent in `order` (1-based numbers). */
  async function uploadInParts(path: string, parts: Uint8Array[], order: number[], end: Record<string, unknown> = {}) {
    const begun = await action(path, { action: 'put', parts: parts.length });
    expect(begun.status, JSON.stringify(begun.body)).toBe(200);
    const offers = begun.body as { upload_uri: string; part_number: number }[];
    for (const number of order) {
      const offer = offers.find((o) => o.part_number === number)!;
      expect((await fetch(offer.upload_uri, { method: 'PUT', body: parts[number - 1] })).status).toBe(200);
    }
    return action(path, { action: 'end', ref: (offers[0] as any).ref, ...end });
  }

  describe('digests', () => {
    /** A large file's MD5, SHA-1 and CRC-32 come once the background job has run (file-digests.test.ts). */
    const digestsComputed = async () => {
      while ((await t.core.jobs.runDue()) > 0) { /* until none is due */ }
    };

    it('answers md5, sha1, sha256 and crc32 of a small and of a large single PUT, in metadata and in the listing', async () => {
      for (const [name, bytes] of [['small.txt', Buffer.from('hello digests')], ['large.bin', randomBytes(2.5 * 1024 * 1024)]] as const) {
        const put = await putFile(t, `ef/${name}`, bytes, { key: member.key });
        expect(put.status, JSON.stringify(put.body)).toBe(201);
        expect(put.body).toMatchObject(digestsOnArrival(bytes));
        await digestsComputed();
        expect((await metadata(`ef/${name}`)).body).toMatchObject(digestsOf(bytes));
        expect(await listed('ef', name)).toMatchObject(digestsOf(bytes));
      }
    });

    it('answers the whole file\'s digests after three parts sent out of order, in order, and as a single part', async () => {
      const parts = [randomBytes(300_000), randomBytes(200_001), randomBytes(1234)];
      const whole = Buffer.concat(parts);
      for (const [name, order] of [['shuffled.bin', [3, 1, 2]], ['ordered.bin', [1, 2, 3]]] as const) {
        const ended = await uploadInParts(`ef/${name}`, parts, [...order]);
        expect(ended.status, JSON.stringify(ended.body)).toBe(201);
        expect(ended.body).toMatchObject({ size: whole.length, ...digestsOnArrival(whole) });
        await digestsComputed();
        expect((await metadata(`ef/${name}`)).body).toMatchObject(digestsOf(whole));
      }
      const single = await uploadInParts('ef/single.bin', [parts[0]!], [1]);
      expect(single.body).toMatchObject(digestsOnArrival(parts[0]!));
      await digestsComputed();
      expect((await metadata('ef/single.bin')).body).toMatchObject(digestsOf(parts[0]!));
      const smallPart = randomBytes(1000);
      expect((await uploadInParts('ef/small-part.bin', [smallPart], [1])).body).toMatchObject(digestsOf(smallPart));
    });

    it('answers the digests of an empty file', async () => {
      const put = await putFile(t, 'ef/empty.txt', new Uint8Array(0), { key: member.key });
      expect(put.body).toMatchObject({ ...digestsOf(new Uint8Array(0)), crc32: '00000000' });
    });

    it('keeps the digests (and the client\'s time) through a copy, and the copy is its copier\'s', async () => {
      const bytes = randomBytes(200_000);
      await putFile(t, 'ef/original.bin', bytes, { key: BOOTSTRAP_KEY });
      await t.api.patch(`/files/${enc('ef/original.bin')}`, { provided_mtime: '2020-05-06T07:08:09Z' }, { key: member.key });
      const copied = await t.api.post(`/file_actions/copy/${enc('ef/original.bin')}`, { destination: 'ef/copy.bin' }, { key: member.key });
      expect(copied.status, JSON.stringify(copied.body)).toBe(201);
      await digestsComputed();
      expect((await metadata('ef/copy.bin')).body).toMatchObject({
        ...digestsOf(bytes), provided_mtime: '2020-05-06T07:08:09Z', created_by_id: member.id, last_modified_by_id: member.id,
      });
    });

    it('answers null digests, mime_type and size for a folder', async () => {
      const made = await t.api.post(`/folders/${enc('ef/sub')}`, {}, { key: member.key });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ type: 'directory', size: null, md5: null, sha1: null, sha256: null, crc32: null, mime_type: null, provided_mtime: null });
    });
  });

  describe('mime_type', () => {
    it('is the media type of the name\'s extension, in any case, and application/octet-stream when unknown', async () => {
      const expected: Record<string, string> = {
        'photo.JPG': 'image/jpeg', 'report.pdf': 'application/pdf', 'notes.txt': 'text/plain',
        'sheet.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'data.unknownext': 'application/octet-stream',
        README: 'application/octet-stream', 'x.constructor': 'application/octet-stream',
      };
      for (const [name, type] of Object.entries(expected)) {
        const put = await putFile(t, `ef/types/${name}`, 'x', { key: member.key }, '?mkdir_parents=true');
        expect(put.status, JSON.stringify(put.body)).toBe(201);
        expect(put.body.mime_type, name).toBe(type);
        expect((await listed('ef/types', name)).mime_type, name).toBe(type);
      }
    });
  });

  describe('provided_mtime', () => {
    it('is null unless the client gave one, and mtime stays the server\'s', async () => {
      const put = await putFile(t, 'ef/plain.txt', 'plain', { key: member.key });
      expect(put.body).toMatchObject({ provided_mtime: null, mtime: expect.stringMatching(/Z$/) });
    });

    it('is kept from folder creation, to the second, whatever the zone it was given in', async () => {
      const made = await t.api.post(`/folders/${enc('ef/dated')}`, { provided_mtime: '2021-02-03T05:06:07.890+01:00' }, { key: member.key });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body.provided_mtime).toBe('2021-02-03T04:06:07Z');
      expect((await metadata('ef/dated')).body.provided_mtime).toBe('2021-02-03T04:06:07Z');
      expect((await listed('ef', 'dated')).provided_mtime).toBe('2021-02-03T04:06:07Z');
    });

    it('is kept from an upload\'s end, and new contents without one have none', async () => {
      const ended = await uploadInParts('ef/synced.bin', [Buffer.from('synced')], [1], { provided_mtime: '2019-12-31T23:59:59Z' });
      expect(ended.status, JSON.stringify(ended.body)).toBe(201);
      expect(ended.body.provided_mtime).toBe('2019-12-31T23:59:59Z');
      expect(ended.body.mtime).not.toBe('2019-12-31T23:59:59Z');
      expect((await metadata('ef/synced.bin')).body.provided_mtime).toBe('2019-12-31T23:59:59Z');
      const replaced = await putFile(t, 'ef/synced.bin', 'again', { key: member.key });
      expect(replaced.body.provided_mtime).toBeNull();
    });

    it('is set by PATCH /files/<path> (File.update), which needs write on the entry', async () => {
      await putFile(t, 'ef/patched.txt', 'patch me', { key: member.key });
      const before = (await metadata('ef/patched.txt')).body;
      const patched = await t.api.patch(`/files/${enc('ef/patched.txt')}`, { provided_mtime: '2018-01-02T03:04:05Z', path: 'ef/patched.txt' }, { key: member.key });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body).toMatchObject({ path: 'ef/patched.txt', provided_mtime: '2018-01-02T03:04:05Z', mtime: before.mtime, sha256: before.sha256 });
      expect((await metadata('ef/patched.txt')).body.provided_mtime).toBe('2018-01-02T03:04:05Z');
      const refused = await t.api.patch(`/files/${enc('ef/patched.txt')}`, { provided_mtime: '2000-01-01T00:00:00Z' }, { key: reader.key });
      expect(refused.status).toBe(403);
      expect((await metadata('ef/patched.txt')).body.provided_mtime).toBe('2018-01-02T03:04:05Z');
    });

    it('refuses a time that is not one, naming provided_mtime, and changes nothing', async () => {
      await putFile(t, 'ef/bad-time.txt', 'x', { key: member.key });
      for (const value of ['yesterday', '2021-02-30T00:00:00Z', '2021-02-03T04:05:06']) {
        const patched = await t.api.patch(`/files/${enc('ef/bad-time.txt')}`, { provided_mtime: value }, { key: member.key });
        expectError(patched, 400, 'bad-request/request-params-invalid');
        expect(patched.body.model_errors, value).toHaveProperty('provided_mtime');
        const made = await t.api.post(`/folders/${enc('ef/bad-time-folder')}`, { provided_mtime: value }, { key: member.key });
        expectError(made, 400, 'bad-request/request-params-invalid');
        expect(made.body.model_errors).toHaveProperty('provided_mtime');
      }
      expect((await metadata('ef/bad-time.txt')).body.provided_mtime).toBeNull();
      expect((await metadata('ef/bad-time-folder')).status).toBe(404);
      const begun = await action('ef/bad-end.txt', { action: 'put' });
      const ended = await action('ef/bad-end.txt', { action: 'end', ref: begun.body.ref, provided_mtime: 'soon' });
      expectError(ended, 400, 'bad-request/request-params-invalid');
      expect(ended.body.model_errors).toHaveProperty('provided_mtime');
    });
  });

  describe('PATCH /files/<path> refusals', () => {
    it('refuses priority_color and custom_metadata by name, and accepts them empty', async () => {
      await putFile(t, 'ef/colour.txt', 'x', { key: member.key });
      const colour = await t.api.patch(`/files/${enc('ef/colour.txt')}`, { priority_color: 'red', provided_mtime: '2017-01-01T00:00:00Z' }, { key: member.key });
      expectError(colour, 400, 'bad-request/request-params-invalid');
      expect(colour.body.model_errors).toHaveProperty('priority_color');
      const custom = await t.api.patch(`/files/${enc('ef/colour.txt')}`, { custom_metadata: { team: 'blue' } }, { key: member.key });
      expectError(custom, 400, 'bad-request/request-params-invalid');
      expect(custom.body.model_errors).toHaveProperty('custom_metadata');
      expect((await metadata('ef/colour.txt')).body.provided_mtime).toBeNull();
      const empty = await t.api.patch(`/files/${enc('ef/colour.txt')}`, { priority_color: null, custom_metadata: {} }, { key: member.key });
      expect(empty.status, JSON.stringify(empty.body)).toBe(200);
      expect(empty.body.path).toBe('ef/colour.txt');
    });

    it('refuses the root folder, which has no time of its own to set', async () => {
      for (const url of ['/files', '/files/']) {
        expectError(await t.api.patch(url, { provided_mtime: '2017-01-01T00:00:00Z' }, { key: BOOTSTRAP_KEY }), 400, 'bad-request/invalid-path');
      }
    });

    it('answers not-found for a missing path', async () => {
      expectError(await t.api.patch(`/files/${enc('ef/missing.txt')}`, { provided_mtime: '2017-01-01T00:00:00Z' }, { key: member.key }), 404, 'not-found/file-not-found');
    });
  });

  describe('created_by_id and last_modified_by_id', () => {
    it('name the user who created a file and the one who last replaced it; a site-wide key is no user', async () => {
      const created = await putFile(t, 'ef/authored.txt', 'one', { key: member.key });
      expect(created.body).toMatchObject({ created_by_id: member.id, last_modified_by_id: member.id });
      const other = await memberOf(t);
      await grantAsSite(t, { path: 'ef/authored.txt', user_id: other.id, permission: 'full' });
      const replaced = await putFile(t, 'ef/authored.txt', 'two', { key: other.key });
      expect(replaced.body).toMatchObject({ created_by_id: member.id, last_modified_by_id: other.id });
      const bySite = await putFile(t, 'ef/by-site.txt', 'site', { key: BOOTSTRAP_KEY });
      expect(bySite.body).toMatchObject({ created_by_id: null, last_modified_by_id: null });
      const folder = await t.api.post(`/folders/${enc('ef/made/deeper')}`, { mkdir_parents: true }, { key: member.key });
      expect(folder.body).toMatchObject({ created_by_id: member.id });
      expect((await metadata('ef/made')).body).toMatchObject({ created_by_id: member.id });
    });
  });
});
