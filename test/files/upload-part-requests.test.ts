import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { downloadText, enc, expectError, grantAsSite, memberOf, seed, type Member } from './files-support.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const MAX_UPLOAD_BYTES = 1024 * 1024;

/**
 * The parameters of a begin-upload request (File.beginUpload, and POST /files/<path> with
 * action=put): `parts` offers several parts at once, `part` with `ref` goes on with an upload
 * begun before, and what Atrium does not do is refused by name (docs/files.md, "Parameters").
 */
describe.each(testDatabaseTargets())('asking for upload parts: parts, part and ref [$name]', (target) => {
  let t: TestApp;
  let member: Member;
  let other: Member;
  beforeAll(async () => {
    t = await startTestApp(target, { maxUploadBytes: MAX_UPLOAD_BYTES });
    await seed(t, { 'up/': '' });
    [member, other] = await Promise.all([memberOf(t), memberOf(t)]);
    for (const m of [member, other]) await grantAsSite(t, { path: 'up', user_id: m.id, permission: 'full' });
  });
  afterAll(() => t.close());

  const beginUpload = (path: string, body: Record<string, unknown>, key = member.key) =>
    t.api.post(`/file_actions/begin_upload/${enc(path)}`, { path, ...body }, { key });
  const action = (path: string, body: Record<string, unknown>, key = member.key) => t.api.post(`/files/${enc(path)}`, body, { key });
  // Parts go to the signed URL with no credential at all, as the SDKs send them.
  const sendPart = (uri: string, bytes: string) => fetch(uri, { method: 'PUT', body: bytes });
  const uploadRows = () => t.database.db.selectFrom('uploads').select(['id', 'ref', 'path_key']).orderBy('id').execute();
  const exists = async (path: string) => (await t.api.get(`/file_actions/metadata/${enc(path)}`, { key: member.key })).status === 200;

  /** Runs `refuse`, and checks that it recorded no upload and made no file at `path`. */
  async function changesNothing(path: string, refuse: () => Promise<void>): Promise<void> {
    const before = await uploadRows();
    await refuse();
    expect(await uploadRows()).toEqual(before);
    expect(await exists(path)).toBe(false);
  }

  it('offers parts 1 to N of one upload, each with its own link, in the FileUploadPart shape', async () => {
    const before = await uploadRows();
    const response = await beginUpload('up/three.bin', { parts: 3 });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const parts = response.body as any[];
    expect(parts).toHaveLength(3);
    const ref = parts[0].ref as string;
    for (const [index, part] of parts.entries()) {
      expect(part).toEqual({
        ref, path: 'up/three.bin', action: 'put/write', upload_uri: expect.stringMatching(new RegExp(`^${t.baseUrl}/api/rest/v1/uploads/`)),
        http_method: 'PUT', part_number: index + 1, partsize: expect.any(Number), next_partsize: expect.any(Number),
        parallel_parts: false, retry_parts: true, available_parts: 10_000, expires: expect.stringMatching(/Z$/),
        ask_about_overwrites: false, headers: {}, parameters: {}, send: {},
      });
    }
    expect(new Set(parts.map((part) => part.upload_uri)).size).toBe(3);
    // One upload, recorded once.
    expect((await uploadRows()).filter((row) => !before.some((old) => old.id === row.id)).map((row) => row.ref)).toEqual([ref]);
  });

  it('joins parts asked for at once and sent out of order, in parallel, into the exact bytes', async () => {
    const pieces = ['first part, ', 'second part, ', 'third part.'];
    const begun = await beginUpload('up/parallel.txt', { parts: 3 });
    const parts = begun.body as any[];
    // The third first, then the other two at the same time.
    expect((await sendPart(parts[2].upload_uri, pieces[2]!)).status).toBe(200);
    const answers = await Promise.all([sendPart(parts[1].upload_uri, pieces[1]!), sendPart(parts[0].upload_uri, pieces[0]!)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const ended = await action('up/parallel.txt', { action: 'end', ref: parts[0].ref });
    expect(ended.status, JSON.stringify(ended.body)).toBe(201);
    expect(ended.body).toMatchObject({ path: 'up/parallel.txt', size: pieces.join('').length, sha256: sha256(pieces.join('')) });
    expect(await downloadText(t, 'up/parallel.txt', { key: member.key })).toBe(pieces.join(''));
  });

  it('answers POST /files with action=put and parts as a list, and without parts as one part, as the SDK reads it', async () => {
    const listed = await action('up/listed.txt', { action: 'put', parts: 2 });
    expect(listed.status).toBe(200);
    expect((listed.body as any[]).map((part) => [part.ref, part.part_number])).toEqual([[listed.body[0].ref, 1], [listed.body[0].ref, 2]]);
    const single = await action('up/single.txt', { action: 'put' });
    expect(single.body).toMatchObject({ part_number: 1, path: 'up/single.txt' });
    expect(Array.isArray(single.body)).toBe(false);
    const one = await action('up/single.txt', { action: 'put', parts: 1 });
    expect(one.body).toEqual([expect.objectContaining({ part_number: 1 })]);
  });

  it('goes on with an upload when given its ref and a part, on both endpoints, beginning nothing new', async () => {
    const begun = await beginUpload('up/continued.txt', {});
    expect(begun.status).toBe(200);
    const ref = begun.body[0].ref as string;
    const rows = await uploadRows();

    const second = await beginUpload('up/continued.txt', { ref, part: 2 });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect((second.body as any[]).map((part) => [part.ref, part.part_number])).toEqual([[ref, 2]]);
    const thirdAndFourth = await beginUpload('up/continued.txt', { ref, part: 3, parts: 2 });
    expect((thirdAndFourth.body as any[]).map((part) => [part.ref, part.part_number])).toEqual([[ref, 3], [ref, 4]]);
    const viaFiles = await action('up/continued.txt', { action: 'put', ref, part: 4 });
    expect(viaFiles.body).toMatchObject({ ref, part_number: 4 });
    const listedViaFiles = await action('up/continued.txt', { action: 'put', ref, part: 2, parts: 2 });
    expect((listedViaFiles.body as any[]).map((part) => part.part_number)).toEqual([2, 3]);
    // `ref` alone offers the upload's first part again.
    expect((await beginUpload('up/continued.txt', { ref })).body).toEqual([expect.objectContaining({ ref, part_number: 1 })]);
    expect(await uploadRows()).toEqual(rows);

    // Each link reaches its own part, whichever request offered it.
    await sendPart(thirdAndFourth.body[1].upload_uri, 'four');
    await sendPart(begun.body[0].upload_uri, 'one-');
    await sendPart(listedViaFiles.body[1].upload_uri, 'three-');
    await sendPart(second.body[0].upload_uri, 'two-');
    const ended = await action('up/continued.txt', { action: 'end', ref });
    expect(ended.body).toMatchObject({ size: 18, sha256: sha256('one-two-three-four') });
    expect(await downloadText(t, 'up/continued.txt', { key: member.key })).toBe('one-two-three-four');
  });

  it('refuses a ref that is unknown, another caller\'s, of another path, ended or expired, and begins nothing instead', async () => {
    const foreign = (await beginUpload('up/theirs.txt', {}, other.key)).body[0].ref as string;
    const mine = (await beginUpload('up/mine.txt', {})).body[0].ref as string;
    const ended = (await beginUpload('up/ended.txt', {})).body[0].ref as string;
    expect((await action('up/ended.txt', { action: 'end', ref: ended })).status).toBe(201);
    const cases: [string, string][] = [
      ['up/bogus.txt', 'bogus'],
      ['up/theirs.txt', foreign],
      ['up/elsewhere.txt', mine],
      ['up/ended.txt', ended],
    ];
    for (const [path, ref] of cases) {
      // An ended upload's file exists; what matters there is that no upload is recorded again.
      const check = path === 'up/ended.txt' ? async (refuse: () => Promise<void>) => {
        const before = await uploadRows();
        await refuse();
        expect(await uploadRows()).toEqual(before);
      } : (refuse: () => Promise<void>) => changesNothing(path, refuse);
      await check(async () => {
        expectError(await beginUpload(path, { part: 2, ref }), 404, 'not-found/file-upload-not-found');
        expectError(await beginUpload(path, { ref, parts: 3 }), 404, 'not-found/file-upload-not-found');
        expectError(await action(path, { action: 'put', part: 2, ref }), 404, 'not-found/file-upload-not-found');
        expectError(await action(path, { action: 'put', ref }), 404, 'not-found/file-upload-not-found');
      });
    }
    // The other caller's upload is still theirs to go on with.
    expect((await beginUpload('up/theirs.txt', { ref: foreign, part: 2 }, other.key)).status).toBe(200);

    t.clock.advanceMinutes(25 * 60);
    try {
      await changesNothing('up/mine.txt', async () => {
        expectError(await beginUpload('up/mine.txt', { part: 2, ref: mine }), 404, 'not-found/file-upload-not-found');
        expectError(await action('up/mine.txt', { action: 'put', part: 2, ref: mine }), 404, 'not-found/file-upload-not-found');
      });
    } finally {
      t.clock.advanceMinutes(-25 * 60);
    }
  });

  it('refuses a part without the ref of its upload', async () => {
    await changesNothing('up/no-ref.txt', async () => {
      for (const response of [await beginUpload('up/no-ref.txt', { part: 2 }), await action('up/no-ref.txt', { action: 'put', part: 1 })]) {
        expectError(response, 400, 'bad-request/request-params-required');
        expect(Object.keys(response.body.model_errors)).toEqual(['ref']);
      }
    });
  });

  it('refuses a number of parts out of range, and part numbers past the last an upload may have', async () => {
    const ref = (await beginUpload('up/range.txt', {})).body[0].ref as string;
    await changesNothing('up/out-of-range.txt', async () => {
      for (const parts of [0, -1, 10_001, 2.5, '3']) {
        for (const response of [await beginUpload('up/out-of-range.txt', { parts }), await action('up/out-of-range.txt', { action: 'put', parts })]) {
          expectError(response, 400, 'bad-request/request-params-invalid');
          expect(Object.keys(response.body.model_errors), JSON.stringify(parts)).toEqual(['parts']);
        }
      }
      const zero = await beginUpload('up/out-of-range.txt', { ref, part: 0 });
      expectError(zero, 400, 'bad-request/request-params-invalid');
      expect(Object.keys(zero.body.model_errors)).toEqual(['part']);
    });
    for (const body of [{ part: 10_001 }, { part: 9_999, parts: 3 }, { part: 1e20 }]) {
      const response = await beginUpload('up/range.txt', { ref, ...body });
      expectError(response, 400, 'bad-request/part-number-too-large');
      expect(Object.keys(response.body.model_errors)).toEqual(['part']);
      expectError(await action('up/range.txt', { action: 'put', ref, ...body }), 400, 'bad-request/part-number-too-large');
    }
    // The last parts an upload may have are offered.
    const last = await beginUpload('up/range.txt', { ref, part: 9_999, parts: 2 });
    expect((last.body as any[]).map((part) => part.part_number)).toEqual([9_999, 10_000]);
  });

  it('offers as many parts as an upload may have in one answer', async () => {
    const response = await beginUpload('up/many.bin', { parts: 10_000 });
    expect(response.status).toBe(200);
    const parts = response.body as any[];
    expect(parts).toHaveLength(10_000);
    expect(parts[9_999]).toMatchObject({ ref: parts[0].ref, part_number: 10_000 });
    expect(new Set(parts.map((part) => part.upload_uri)).size).toBe(10_000);
  });

  it('honours size against the upload limit, and refuses restart and with_rename by name rather than ignore them', async () => {
    await changesNothing('up/refused.txt', async () => {
      expectError(await beginUpload('up/refused.txt', { size: MAX_UPLOAD_BYTES + 1 }), 400, 'bad-request/request-body-too-large');
      expectError(await action('up/refused.txt', { action: 'put', size: MAX_UPLOAD_BYTES + 1 }), 400, 'bad-request/request-body-too-large');
      for (const [name, value] of [['restart', 5], ['with_rename', true], ['with_rename', 'true']] as const) {
        for (const response of [await beginUpload('up/refused.txt', { [name]: value }), await action('up/refused.txt', { action: 'put', [name]: value })]) {
          expectError(response, 400, 'bad-request/request-params-invalid');
          expect(Object.keys(response.body.model_errors)).toEqual([name]);
        }
      }
    });
    // What asks for neither is accepted: a size within the limit, restart 0, with_rename false.
    const begun = await beginUpload('up/accepted.txt', { size: 9, restart: 0, with_rename: false, mkdir_parents: true });
    expect(begun.status, JSON.stringify(begun.body)).toBe(200);
    await sendPart(begun.body[0].upload_uri, 'accepted!');
    expect((await action('up/accepted.txt', { action: 'end', ref: begun.body[0].ref })).body).toMatchObject({ size: 9 });
    // A continuation that declares too large a file is refused too.
    const ref = (await beginUpload('up/declared.txt', {})).body[0].ref as string;
    expectError(await beginUpload('up/declared.txt', { ref, part: 2, size: MAX_UPLOAD_BYTES + 1 }), 400, 'bad-request/request-body-too-large');
  });
});
