import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, buildAppOn, startTestApp, type TestApp } from '../support/test-app.js';
import { downloadText, enc, expectError, grantAsSite, listedPaths, memberOf, newWorkspace, seed, type Member } from './files-support.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(testDatabaseTargets())('the upload protocol of the Files.com SDKs [$name]', (target) => {
  let t: TestApp;
  let member: Member;
  let other: Member;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seed(t, { 'up/': '' });
    [member, other] = await Promise.all([memberOf(t), memberOf(t)]);
    for (const m of [member, other]) await grantAsSite(t, { path: 'up', user_id: m.id, permission: 'full' });
  });
  afterAll(() => t.close());

  const action = (path: string, body: Record<string, unknown>, key = member.key, workspace?: number) =>
    t.api.post(`/files/${enc(path)}`, body, { key, ...(workspace === undefined ? {} : { workspace }) });
  // Parts go to the signed URL with no credential at all, as the SDK sends them.
  const sendPart = (uri: string, bytes: string) => fetch(uri, { method: 'PUT', body: bytes });

  async function uploadInParts(path: string, parts: string[], key = member.key): Promise<any> {
    const begun = await action(path, { action: 'put' }, key);
    expect(begun.status, JSON.stringify(begun.body)).toBe(200);
    for (const [index, bytes] of parts.entries()) {
      const offer = await action(path, { action: 'put', ref: begun.body.ref, part: index + 1 }, key);
      expect(offer.body.part_number).toBe(index + 1);
      expect((await sendPart(offer.body.upload_uri, bytes)).status).toBe(200);
    }
    return action(path, { action: 'end', ref: begun.body.ref }, key);
  }

  it('begins with what the SDK reads from a FileUploadPart, pointing back at this server', async () => {
    const begun = await action('up/new.txt', { action: 'put' });
    expect(begun.status).toBe(200);
    expect(begun.body).toMatchObject({
      path: 'up/new.txt', http_method: 'PUT', part_number: 1, parallel_parts: false, retry_parts: true,
      partsize: expect.any(Number), next_partsize: expect.any(Number), ref: expect.stringMatching(/^[0-9a-f]{32}$/),
      ask_about_overwrites: false, expires: expect.stringMatching(/Z$/),
    });
    expect(begun.body.upload_uri.startsWith(`${t.baseUrl}/api/rest/v1/uploads/`)).toBe(true);
  });

  it('makes the file visible only when the upload ends', async () => {
    const begun = await action('up/late.txt', { action: 'put' });
    const offer = await action('up/late.txt', { action: 'put', ref: begun.body.ref, part: 1 });
    expect((await sendPart(offer.body.upload_uri, 'late bytes')).status).toBe(200);
    expect(await listedPaths(t, 'up', { key: member.key })).not.toContain('up/late.txt');
    const ended = await action('up/late.txt', { action: 'end', ref: begun.body.ref });
    expect(ended.status).toBe(201);
    expect(ended.body).toMatchObject({ path: 'up/late.txt', type: 'file', size: 10, sha256: sha256('late bytes'), permissions: 'lrwd' });
    expect(await downloadText(t, 'up/late.txt', { key: member.key })).toBe('late bytes');
  });

  it('joins several parts in order, whatever order they arrive in, a retried part replacing the first copy', async () => {
    const begun = await action('up/parts.bin', { action: 'put' });
    const offers = await Promise.all([1, 2, 3].map((part) => action('up/parts.bin', { action: 'put', ref: begun.body.ref, part })));
    expect((await sendPart(offers[2]!.body.upload_uri, 'third')).status).toBe(200);
    expect((await sendPart(offers[0]!.body.upload_uri, 'WRONG')).status).toBe(200);
    expect((await sendPart(offers[1]!.body.upload_uri, 'second-')).status).toBe(200);
    expect((await sendPart(offers[0]!.body.upload_uri, 'first-')).status).toBe(200);
    const ended = await action('up/parts.bin', { action: 'end', ref: begun.body.ref });
    expect(ended.body).toMatchObject({ size: 18, sha256: sha256('first-second-third') });
    expect(await downloadText(t, 'up/parts.bin', { key: member.key })).toBe('first-second-third');
  });

  it('stores an empty file when the upload ends without parts (the SDK sends none for empty data)', async () => {
    const ended = await uploadInParts('up/empty.txt', []);
    expect(ended.status).toBe(201);
    expect(ended.body).toMatchObject({ size: 0, sha256: sha256('') });
    expect(await downloadText(t, 'up/empty.txt', { key: member.key })).toBe('');
  });

  it('refuses to end an upload with a missing part', async () => {
    const begun = await action('up/gap.txt', { action: 'put' });
    const second = await action('up/gap.txt', { action: 'put', ref: begun.body.ref, part: 2 });
    await sendPart(second.body.upload_uri, 'two');
    expectError(await action('up/gap.txt', { action: 'end', ref: begun.body.ref }), 400, 'bad-request/invalid-upload-part-gap');
  });

  it('ends an upload as the Go SDK does: size as text, the parts\' ETags as flat etags[n][...] keys, a time with an offset; a size or ETag that disagrees is refused and the upload stays open', async () => {
    const begun = await action('up/go.txt', { action: 'put', parts: 2 });
    const sent = await Promise.all(['go, ', 'part two'].map((bytes, index) => sendPart(begun.body[index].upload_uri, bytes)));
    const tags = sent.map((answer) => answer.headers.get('etag') as string);
    expect(tags).toEqual([`"${sha256('go, ')}"`, `"${sha256('part two')}"`]);
    const goEnd = (extra: Record<string, string>) => action('up/go.txt', {
      action: 'end', ref: begun.body[0].ref, provided_mtime: '2021-04-14T09:29:16-07:00',
      'etags[0][etag]': tags[0]!, 'etags[0][part]': '1', 'etags[1][etag]': tags[1]!, 'etags[1][part]': '2', size: '12', ...extra,
    });

    const wrongSize = await goEnd({ size: '13' });
    expectError(wrongSize, 400, 'bad-request/request-params-invalid');
    expect(wrongSize.body.model_errors).toEqual({ size: ['is 13 bytes, but the parts received hold 12'] });
    const wrongTag = await goEnd({ 'etags[1][etag]': `"${sha256('other bytes')}"` });
    expectError(wrongTag, 400, 'bad-request/invalid-etags');
    expect(wrongTag.body.model_errors.etags).toEqual(['Part 2 was received with other bytes than its ETag names; send it again.']);
    expectError(await goEnd({ 'etags[1][part]': '1' }), 400, 'bad-request/invalid-etags');
    expectError(await goEnd({ 'etags[1][part]': 'two' }), 400, 'bad-request/request-params-invalid');
    expect(await listedPaths(t, 'up', { key: member.key })).not.toContain('up/go.txt');

    const ended = await goEnd({});
    expect(ended.status, JSON.stringify(ended.body)).toBe(201);
    expect(ended.body).toMatchObject({ path: 'up/go.txt', size: 12, provided_mtime: '2021-04-14T16:29:16Z', sha256: sha256('go, part two') });
  });

  it('takes etags as a JSON list of parts too, and leaves them out (the JavaScript SDK) as before', async () => {
    const begun = await action('up/listed.txt', { action: 'put' });
    const tag = (await sendPart(begun.body.upload_uri, 'listed')).headers.get('etag') as string;
    expectError(await action('up/listed.txt', { action: 'end', ref: begun.body.ref, etags: [] }), 400, 'bad-request/invalid-etags');
    const ended = await action('up/listed.txt', { action: 'end', ref: begun.body.ref, size: 6, etags: [{ etag: tag.toUpperCase().slice(1, -1), part: 1 }] });
    expect(ended.status, JSON.stringify(ended.body)).toBe(201);
    expect((await uploadInParts('up/plain.txt', ['no etags'])).status).toBe(201);
  });

  /** Runs `work` with the URL of a second server on the same database and data directory: a restart, or another node. */
  async function onAnotherServer<T>(work: (url: string) => Promise<T>): Promise<T> {
    const other = await buildAppOn({
      database: t.database,
      config: { headerBrands: ['Service'], logLevel: 'silent', accessLog: false, dataDir: t.dataDir },
      clock: t.clock,
    });
    try {
      return await work(await other.listen({ host: '127.0.0.1', port: 0 }));
    } finally {
      await other.close();
    }
  }
  const endOn = (url: string, path: string, ref: string) => fetch(`${url}/api/rest/v1/files/${enc(path)}`, {
    method: 'POST',
    headers: { 'X-ServiceAPI-Key': member.key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'end', ref }),
  }).then(async (response) => ({ status: response.status, body: await response.json() as any }));
  const runsDir = () => path.join(t.dataDir, 'files', 'runs');
  const objectFiles = async () => (await fs.readdir(path.join(t.dataDir, 'files', 'objects'), { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  /** Where each part's bytes are: a blob of its own, or a slice of its upload's run (`<run>.<offset>.<size>`). */
  const partPlaces = async (ref: string) => {
    const upload = await t.database.db.selectFrom('uploads').select('id').where('ref', '=', ref).executeTakeFirstOrThrow();
    const rows = await t.database.db.selectFrom('upload_parts').select(['part_number', 'storage_key']).where('upload_id', '=', upload.id).orderBy('part_number').execute();
    return rows.map((row) => {
      const slice = /^([0-9a-f]{32})\.(\d+)\.(\d+)$/.exec(row.storage_key);
      return slice === null
        ? { inRun: false, file: path.join(t.dataDir, 'files', 'objects', row.storage_key.slice(0, 2), row.storage_key), offset: 0 }
        : { inRun: true, file: path.join(runsDir(), `${slice[1]}.run`), offset: Number(slice[2]) };
    });
  };

  // Parts are kept unflushed until the upload ends; a part an operating system crash cut short or
  // lost is found when the upload ends, and never becomes part of a file. Such a crash restarts the
  // server: the upload ends on another server process here.
  it.each([['one of its parts', ['first-', 'second']], ['its only part', ['only part']]])('refuses to end an upload when %s was lost since it arrived, and ends once it is sent again', async (_what, parts) => {
    const file = `up/lost-${parts.length}.txt`;
    const begun = await action(file, { action: 'put' });
    for (const [index, bytes] of parts.entries()) {
      const offer = await action(file, { action: 'put', ref: begun.body.ref, part: index + 1 });
      expect((await sendPart(offer.body.upload_uri, bytes)).status).toBe(200);
    }
    const last = parts.length;
    // Sent in order, every part is a slice of the upload's run: the last one is cut short, then lost.
    const place = (await partPlaces(begun.body.ref))[last - 1];
    expect(place?.inRun).toBe(true);
    await fs.truncate(place!.file, place!.offset + 2);
    await onAnotherServer(async (url) => {
      expectError(await endOn(url, file, begun.body.ref), 422, 'processing-failure/upload-part-lost');
      await fs.truncate(place!.file, place!.offset);
      expectError(await endOn(url, file, begun.body.ref), 422, 'processing-failure/upload-part-lost');
    });
    expect((await t.api.get(`/file_actions/metadata/${enc(file)}`, { key: member.key })).status).toBe(404);

    const again = await action(file, { action: 'put', ref: begun.body.ref, part: last });
    expect((await sendPart(again.body.upload_uri, parts[last - 1] as string)).status).toBe(200);
    const ended = await action(file, { action: 'end', ref: begun.body.ref });
    expect(ended.status, JSON.stringify(ended.body)).toBe(201);
    expect(await downloadText(t, file, { key: member.key })).toBe(parts.join(''));
    await expect(fs.stat(place!.file)).rejects.toThrow();
  });

  // Parts sent in order to one server are written once, into the upload's run, and the end makes
  // the run the file's blob as it is (docs/files.md, Storage): no part has a blob of its own, and
  // the file's blob is the run's very file (the same inode: linked, not copied).
  it('writes parts sent in order once, and ends the upload with the bytes as they arrived, neither read again nor copied', async () => {
    const parts = ['alpha-', 'beta-', 'x'.repeat(300_000), '-omega'];
    const blobsBefore = new Set(await objectFiles());
    const begun = await action('up/in-order.bin', { action: 'put' });
    for (const [index, bytes] of parts.entries()) {
      const offer = await action('up/in-order.bin', { action: 'put', ref: begun.body.ref, part: index + 1 });
      expect((await sendPart(offer.body.upload_uri, bytes)).status).toBe(200);
    }
    const places = await partPlaces(begun.body.ref);
    expect(places.map((place) => place.inRun)).toEqual([true, true, true, true]);
    expect(new Set(places.map((place) => place.file)).size).toBe(1);
    expect((await objectFiles()).filter((file) => !blobsBefore.has(file))).toEqual([]);
    const runInode = (await fs.stat(places[0]!.file)).ino;

    const ended = await action('up/in-order.bin', { action: 'end', ref: begun.body.ref });
    expect(ended.status, JSON.stringify(ended.body)).toBe(201);
    expect(ended.body).toMatchObject({ size: parts.join('').length, sha256: sha256(parts.join('')) });
    expect(await downloadText(t, 'up/in-order.bin', { key: member.key })).toBe(parts.join(''));
    const newBlobs = (await objectFiles()).filter((file) => !blobsBefore.has(file));
    expect(newBlobs).toHaveLength(1);
    expect((await fs.stat(newBlobs[0]!)).ino).toBe(runInode);
    await expect(fs.stat(places[0]!.file)).rejects.toThrow();
  });

  it.each([
    ['a part sent again', [1, 2, 2, 3]],
    ['parts out of order', [1, 3, 2]],
    ['a part sent to another server', [1, -2, 3]],
  ])('joins the parts as the database lists them after %s, each checked', async (_what, order) => {
    const bytes = (part: number, attempt: number) => `part-${part}.${attempt}|`;
    const file = `up/mixed-${order.join('')}.bin`;
    const begun = await action(file, { action: 'put' });
    const sent = new Map<number, number>();
    for (const signed of order) {
      const part = Math.abs(signed);
      const attempt = (sent.get(part) ?? 0) + 1;
      sent.set(part, attempt);
      const offer = await action(file, { action: 'put', ref: begun.body.ref, part });
      const send = (uri: string) => sendPart(uri, bytes(part, attempt));
      const answer = signed > 0 ? await send(offer.body.upload_uri) : await onAnotherServer((url) => send(offer.body.upload_uri.replace(t.baseUrl, url)));
      expect(answer.status).toBe(200);
    }
    const expected = [...sent.keys()].sort().map((part) => bytes(part, sent.get(part) as number)).join('');
    const [first] = await partPlaces(begun.body.ref);
    expect(first?.inRun).toBe(true);
    const ended = await action(file, { action: 'end', ref: begun.body.ref });
    expect(ended.body).toMatchObject({ size: expected.length, sha256: sha256(expected) });
    expect(await downloadText(t, file, { key: member.key })).toBe(expected);
    // The run that held the first parts went with the upload.
    await expect(fs.stat(first!.file)).rejects.toThrow();
  });

  it('removes a run as soon as no part refers to it, and keeps it while one does', async () => {
    const file = 'up/resent-first.bin';
    const begun = await action(file, { action: 'put' });
    await sendPart(begun.body.upload_uri, 'first, once');
    const [firstCopy] = await partPlaces(begun.body.ref);
    expect(firstCopy?.inRun).toBe(true);
    // Part 1 again: it cannot continue the run, so it is stored on its own, and the run, which no
    // part refers to any more, is removed.
    const again = await action(file, { action: 'put', ref: begun.body.ref, part: 1 });
    await sendPart(again.body.upload_uri, 'first, again-');
    expect((await partPlaces(begun.body.ref)).map((place) => place.inRun)).toEqual([false]);
    await expect(fs.stat(firstCopy!.file)).rejects.toThrow();
    // Part 2 is stored on its own too (the run is gone); the file is both.
    const second = await action(file, { action: 'put', ref: begun.body.ref, part: 2 });
    await sendPart(second.body.upload_uri, 'second');
    const ended = await action(file, { action: 'end', ref: begun.body.ref });
    expect(ended.body).toMatchObject({ sha256: sha256('first, again-second') });

    // A run holding parts 1 and 2, then part 2 again: part 1 still refers to the run, which stays
    // until the upload ends.
    const kept = await action('up/kept-run.bin', { action: 'put' });
    await sendPart(kept.body.upload_uri, 'one-');
    const two = await action('up/kept-run.bin', { action: 'put', ref: kept.body.ref, part: 2 });
    await sendPart(two.body.upload_uri, 'two?');
    await sendPart(two.body.upload_uri, 'two!');
    const places = await partPlaces(kept.body.ref);
    expect(places.map((place) => place.inRun)).toEqual([true, false]);
    expect(await fs.readFile(places[0]!.file, 'utf8')).toBe('one-two?');
    expect((await action('up/kept-run.bin', { action: 'end', ref: kept.body.ref })).body).toMatchObject({ sha256: sha256('one-two!') });
    expect(await downloadText(t, 'up/kept-run.bin', { key: member.key })).toBe('one-two!');
    await expect(fs.stat(places[0]!.file)).rejects.toThrow();
  });

  it('stores a part on its own when its run was removed by another node meanwhile', async () => {
    const file = 'up/run-gone.bin';
    const begun = await action(file, { action: 'put' });
    await sendPart(begun.body.upload_uri, 'lost copy');
    const [first] = await partPlaces(begun.body.ref);
    // Part 1 again, through another node: no part refers to this server's run any more, so it goes.
    const again = await action(file, { action: 'put', ref: begun.body.ref, part: 1 });
    await onAnotherServer((url) => sendPart(again.body.upload_uri.replace(t.baseUrl, url), 'one-'));
    await expect(fs.stat(first!.file)).rejects.toThrow();
    // This server still takes part 2 as its run's next: the run is gone, so the part is stored alone.
    const second = await action(file, { action: 'put', ref: begun.body.ref, part: 2 });
    expect((await sendPart(second.body.upload_uri, 'two')).status).toBe(200);
    // (Part 1 began a run of its own on the other node.)
    expect((await partPlaces(begun.body.ref)).map((place) => place.inRun)).toEqual([true, false]);
    expect((await action(file, { action: 'end', ref: begun.body.ref })).body).toMatchObject({ sha256: sha256('one-two') });
    expect(await downloadText(t, file, { key: member.key })).toBe('one-two');
  });

  it('lets only the caller who began an upload go on with it, for that path, once', async () => {
    const begun = await action('up/mine.txt', { action: 'put' });
    const ref = begun.body.ref as string;
    expectError(await action('up/mine.txt', { action: 'put', ref, part: 1 }, other.key), 404, 'not-found/file-upload-not-found');
    expectError(await action('up/mine.txt', { action: 'end', ref }, other.key), 404, 'not-found/file-upload-not-found');
    expectError(await action('up/other-name.txt', { action: 'end', ref }), 404, 'not-found/file-upload-not-found');
    expectError(await action('up/mine.txt', { action: 'end', ref: 'no-such-ref' }), 404, 'not-found/file-upload-not-found');
    expectError(await action('up/mine.txt', { action: 'end' }), 400, 'bad-request/request-params-required');
    expect((await action('UP/MINE.TXT', { action: 'end', ref })).status).toBe(201);
    expectError(await action('up/mine.txt', { action: 'end', ref }), 404, 'not-found/file-upload-not-found');
  });

  it('accepts a part URL only as signed, only while it lasts, and only while its upload is open', async () => {
    const begun = await action('up/signed.txt', { action: 'put' });
    const uri = begun.body.upload_uri as string;
    const token = uri.slice(uri.lastIndexOf('/') + 1);
    const tampered = [
      token.replace(/\.(\d+)\./, (_m, id: string) => `.${Number(id) + 1}.`),
      token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA'),
      token.replace(/^u/, 'd'),
      'u.1.1.99999999999.short',
      '..',
      // Ids beyond the database's integer range are refused as unknown, not as a server error.
      `u.99999999999.1.9999999999.${'A'.repeat(43)}`,
      `u.9999999999999999.99999.9999999999.${'A'.repeat(43)}`,
    ];
    for (const bad of tampered) {
      const response = await fetch(`${t.baseUrl}/api/rest/v1/uploads/${bad}`, { method: 'PUT', body: 'x' });
      expect(response.status, bad).toBe(404);
    }
    t.clock.advanceMinutes(16);
    const expired = await fetch(uri, { method: 'PUT', body: 'x' });
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as any).type).toBe('not-authenticated/transfer-link-expired');
    t.clock.advanceMinutes(-16);
    await action('up/signed.txt', { action: 'end', ref: begun.body.ref });
    expect((await fetch(uri, { method: 'PUT', body: 'x' })).status).toBe(404);
  });

  it('abandons an upload after a day: its parts are removed as later uploads begin', async () => {
    const begun = await action('up/abandoned.txt', { action: 'put' });
    await sendPart(begun.body.upload_uri, 'abandoned');
    const parts = await t.database.db.selectFrom('upload_parts').select('storage_key').execute();
    expect(parts.length).toBeGreaterThan(0);
    t.clock.advanceMinutes(25 * 60);
    try {
      await action('up/trigger.txt', { action: 'put' });
      expect(await t.database.db.selectFrom('uploads').select('id').where('ref', '=', begun.body.ref).execute()).toEqual([]);
      expectError(await action('up/abandoned.txt', { action: 'end', ref: begun.body.ref }), 404, 'not-found/file-upload-not-found');
    } finally {
      t.clock.advanceMinutes(-25 * 60);
    }
  });

  it('keeps an upload whose owner is deleted only until it expires, then removes its parts', async () => {
    const leaving = await memberOf(t);
    await grantAsSite(t, { path: 'up', user_id: leaving.id, permission: 'full' });
    const begun = await action('up/orphan.txt', { action: 'put' }, leaving.key);
    await sendPart(begun.body.upload_uri, 'orphaned part');
    const [place] = await partPlaces(begun.body.ref);
    expect((await t.api.delete(`/users/${leaving.id}`, { key: BOOTSTRAP_KEY })).status).toBeLessThan(300);
    // Nobody may go on with it now, a Site Administrator included.
    expectError(await action('up/orphan.txt', { action: 'end', ref: begun.body.ref }, BOOTSTRAP_KEY), 404, 'not-found/file-upload-not-found');
    const blob = place!.file;
    await expect(fs.stat(blob)).resolves.toBeDefined();
    t.clock.advanceMinutes(25 * 60);
    try {
      await action('up/trigger2.txt', { action: 'put' });
    } finally {
      t.clock.advanceMinutes(-25 * 60);
    }
    await expect(fs.stat(blob)).rejects.toThrow();
  });

  it('decides the right to write when the upload begins and again when it ends', async () => {
    const ws = await newWorkspace(t);
    const inside = await memberOf(t, { workspaceId: ws });
    const grant = await grantAsSite(t, { path: 'inbox', user_id: inside.id, permission: 'writeonly' }, ws);
    expectError(await action('elsewhere/x.txt', { action: 'put' }, inside.key), 403, 'not-authorized/write-permission-required');
    const begun = await action('inbox/x.txt', { action: 'put' }, inside.key);
    expect(begun.body.path).toBe('inbox/x.txt');
    await sendPart(begun.body.upload_uri, 'x');
    await t.api.delete(`/permissions/${grant}`, { key: BOOTSTRAP_KEY });
    expectError(await action('inbox/x.txt', { action: 'end', ref: begun.body.ref }, inside.key), 403, 'not-authorized/write-permission-required');
  });

  it('signs links that another node on the same database and storage accepts', async () => {
    const other = await buildAppOn({
      database: t.database,
      config: { headerBrands: ['Service'], logLevel: 'silent', accessLog: false, dataDir: t.dataDir },
      clock: t.clock,
    });
    const otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
    try {
      const begun = await action('up/two-nodes.txt', { action: 'put' });
      const onOther = begun.body.upload_uri.replace(t.baseUrl, otherUrl);
      expect((await sendPart(onOther, 'sent to node two')).status).toBe(200);
      expect((await action('up/two-nodes.txt', { action: 'end', ref: begun.body.ref })).status).toBe(201);
      const meta = await fetch(`${otherUrl}/api/rest/v1/files/up%2Ftwo-nodes.txt`, { headers: { 'X-ServiceAPI-Key': member.key } }).then((r) => r.json()) as any;
      expect(await (await fetch(meta.download_uri.replace(otherUrl, t.baseUrl))).text()).toBe('sent to node two');
    } finally {
      await other.close();
    }
  });

  it('answers begin_upload (File.beginUpload) with a list of parts', async () => {
    const response = await t.api.post(`/file_actions/begin_upload/${enc('up/begun.txt')}`, { path: 'up/begun.txt' }, { key: member.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([expect.objectContaining({ part_number: 1, path: 'up/begun.txt' })]);
  });
});
