import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpsRequest, startHttpsServer } from '../support/https-server-process.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { makeTestCertificateAuthority, type TestCertificateAuthority } from '../support/tls-certificates.js';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';

const KEY = 'files-sdk-bootstrap-key-0123456789abcdef-0123';
const MiB = 1024 * 1024;

// The official SDK is CommonJS without types: loaded as it is published.
const require = createRequire(import.meta.url);
const Files = require('files.com/lib/Files.js');
const File = require('files.com/lib/models/File.js');
const Folder = require('files.com/lib/models/Folder.js');
const { LogLevel } = require('files.com/lib/Logger.js');
const History = require('files.com/lib/models/History.js').default;
const HistoryExport = require('files.com/lib/models/HistoryExport.js').default;
const HistoryExportResult = require('files.com/lib/models/HistoryExportResult.js').default;
const PublicKey = require('files.com/lib/models/PublicKey.js').default;
const User = require('files.com/lib/models/User.js').default;
const GroupUser = require('files.com/lib/models/GroupUser.js').default;
const ApiKey = require('files.com/lib/models/ApiKey.js').default;
const Site = require('files.com/lib/models/Site.js').default;
const Session = require('files.com/lib/models/Session.js').default;

/** Resident memory of a process, from /proc (Linux), in bytes. */
function residentBytes(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** Size and SHA-256 of what a URL serves, streamed (https trusting the test CA, set below). */
function sha256Of(url: string): Promise<{ size: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    (url.startsWith('https:') ? https : http).get(url, (response) => {
      const hash = createHash('sha256');
      let size = 0;
      response.on('data', (chunk: Buffer) => { hash.update(chunk); size += chunk.length; });
      response.on('end', () => resolve({ size, sha256: hash.digest('hex') }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** `size` bytes that are not all alike, made 1 MiB at a time and hashed as they go. */
function generated(size: number): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const chunk = Buffer.alloc(Math.min(MiB, size - sent));
      for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE((sent + i) * 2654435761 >>> 0, i);
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

/**
 * The SDK fetches a download_uri with `https.get`, so its links must be https: Atrium serves HTTPS
 * itself, with a server certificate from a CA this test makes, which the SDK's agent trusts.
 */
describe('the official Files.com SDK (files.com 1.2.314) against a running Atrium over HTTPS', () => {
  let server: ServerProcess;
  let authority: TestCertificateAuthority;
  let memberKey: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-sdk-'));
  const admin = (method: string, url: string, body?: unknown) =>
    httpsRequest(`${server.baseUrl}/api/rest/v1${url}`, {
      ca: authority.ca, method, headers: { 'X-FilesAPI-Key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then((r) => ({ status: r.status, body: r.body === '' ? undefined : JSON.parse(r.body) }));

  beforeAll(async () => {
    authority = makeTestCertificateAuthority(path.join(work, 'pki'));
    const certificate = authority.issue('atrium');
    server = await startHttpsServer({
      ATRIUM_DATA_DIR: path.join(work, 'data'),
      ATRIUM_BOOTSTRAP_API_KEY: KEY,
      ATRIUM_HEADER_BRANDS: 'Service,Files',
      ATRIUM_TLS_CERT_FILE: certificate.chainFile,
      ATRIUM_TLS_KEY_FILE: certificate.keyFile,
    }, authority.ca);
    https.globalAgent.options.ca = authority.ca;
    // A member with its own key and a grant on one folder: the SDK acts as that member.
    const user = await admin('POST', '/users', { username: 'sdk-member' });
    expect(user.status).toBe(201);
    const key = await admin('POST', '/api_keys', { name: 'sdk', user_id: user.body.id });
    expect(key.status).toBe(201);
    memberKey = key.body.key;
    expect((await admin('POST', '/folders/sdk')).status).toBe(201);
    expect((await admin('POST', '/folders/elsewhere')).status).toBe(201);
    expect((await admin('POST', '/permissions', { path: 'sdk', user_id: user.body.id, permission: 'full' })).status).toBe(201);
    Files.setBaseUrl(server.baseUrl);
    Files.setApiKey(memberKey);
    Files.setLogLevel(LogLevel.NONE);
  });

  afterAll(async () => {
    // The access log showed every transfer, and never a working link or a key.
    const log = server?.output() ?? '';
    expect(log).toContain('/api/rest/v1/downloads/[redacted]');
    expect(log).toContain('/api/rest/v1/uploads/[redacted]');
    expect(log).not.toMatch(/\/(downloads|uploads)\/[ud]\./);
    expect(log).not.toContain(memberKey);
    expect(log).not.toContain(KEY);
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('uploads, lists, finds, downloads and deletes a file with the SDK\'s own calls', async () => {
    const local = path.join(work, 'hello.txt');
    fs.writeFileSync(local, 'hello from the Files.com SDK\n');
    await Folder.create('sdk/made by sdk', { mkdir_parents: true });
    const uploaded = await File.uploadFile('sdk/made by sdk/hello.txt', local);
    expect(uploaded.path).toBe('sdk/made by sdk/hello.txt');
    expect(uploaded.size).toBe(29);

    const listed = await Folder.listFor('sdk/made by sdk');
    expect(listed.map((f: any) => [f.path, f.type, f.permissions])).toEqual([['sdk/made by sdk/hello.txt', 'file', 'lrwd']]);
    expect((await Folder.listFor('/')).map((f: any) => f.path)).toEqual(['sdk']);

    const found = await File.find('sdk/made by sdk/hello.txt');
    expect(found.download_uri.startsWith(`${server.baseUrl}/api/rest/v1/downloads/`)).toBe(true);
    expect(await found.downloadToString()).toBe('hello from the Files.com SDK\n');
    const downloaded = await found.download();
    const copy = path.join(work, 'hello-copy.txt');
    await downloaded.downloadToFile(copy);
    expect(fs.readFileSync(copy, 'utf8')).toBe('hello from the Files.com SDK\n');

    await found.delete();
    const gone = await File.find('sdk/made by sdk/hello.txt').catch((error: any) => error);
    expect(gone.constructor.name).toBe('NotFound_FileNotFoundError');
  });

  it('reads an entry\'s digests and media type, and sets its client time with File.update', async () => {
    const local = path.join(work, 'fields.csv');
    fs.writeFileSync(local, 'a,b\n1,2\n');
    await File.uploadFile('sdk/fields.csv', local);
    const found = await File.find('sdk/fields.csv');
    const hex = (algorithm: string) => createHash(algorithm).update('a,b\n1,2\n').digest('hex');
    expect([found.md5, found.sha1, found.sha256, found.mime_type, found.provided_mtime]).toEqual([hex('md5'), hex('sha1'), hex('sha256'), 'text/csv', null]);
    expect(found.crc32).toMatch(/^[0-9a-f]{8}$/);
    const updated = await found.update({ provided_mtime: '2022-03-04T05:06:07Z' });
    expect(updated.provided_mtime).toBe('2022-03-04T05:06:07Z');
    expect((await File.find('sdk/fields.csv')).provided_mtime).toBe('2022-03-04T05:06:07Z');
    const colour = await found.update({ priority_color: 'red' }).catch((error: any) => error);
    expect(colour.constructor.name).toBe('BadRequest_RequestParamsInvalidError');
  });

  it('surfaces Atrium\'s refusals as the SDK\'s typed errors', async () => {
    // The root is visible to all, but the member may not write there; `elsewhere` it cannot even
    // see, so it is a folder the upload would have to make at the root, as where nothing is.
    const atRoot = await File.uploadData('top-level.txt', 'x').catch((error: any) => error);
    expect(atRoot.constructor.name).toBe('NotAuthorized_WritePermissionRequiredError');
    const outside = await File.uploadData('elsewhere/x.txt', 'x').catch((error: any) => error);
    expect(outside.constructor.name).toBe('NotAuthorized_WritePermissionRequiredError');
    const nowhere = await File.uploadData('nowhere/x.txt', 'x').catch((error: any) => error);
    expect(nowhere.constructor.name).toBe('NotAuthorized_WritePermissionRequiredError');
    const unseen = await File.find('elsewhere/x.txt').catch((error: any) => error);
    expect(unseen.constructor.name).toBe('NotFound_FileNotFoundError');
    await Folder.create('sdk/full', {});
    await File.uploadData('sdk/full/a.txt', 'a');
    const notEmpty = await (await File.find('sdk/full')).delete().catch((error: any) => error);
    expect(notEmpty.constructor.name).toBe('ProcessingFailure_FolderNotEmptyError');
    await (await File.find('sdk/full')).delete({ recursive: true });
    const exists = await Folder.create('sdk', {}).catch((error: any) => error);
    expect(exists.constructor.name).toBe('ProcessingFailure_DestinationExistsError');
  });

  it('signs in a user with two-factor authentication through the SDK\'s own challenge: TwoFactorAuthenticationError, then otp', async () => {
    const guarded = { username: 'sdk-guarded', password: 'the guarded user\'s passphrase' };
    expect((await admin('POST', '/users', guarded)).status).toBe(201);
    const asGuarded = async (method: string, url: string, headers: Record<string, string>, body: unknown) => {
      const answer = await httpsRequest(`${server.baseUrl}/api/rest/v1${url}`, { ca: authority.ca, method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return JSON.parse(answer.body);
    };
    const session = (await asGuarded('POST', '/sessions', {}, guarded)).id as string;
    const started = await asGuarded('POST', '/2fa/totp', { 'X-FilesAPI-Auth': session, 'X-Files-Reauthentication': `password:${guarded.password}` }, {});
    await asGuarded('POST', '/2fa/totp/confirm', { 'X-FilesAPI-Auth': session }, { otp: await generate({ secret: started.secret }) });

    const challenged = await Session.create(guarded).catch((error: any) => error);
    expect(challenged.constructor.name).toBe('NotAuthenticated_TwoFactorAuthenticationErrorError');
    expect(challenged.data).toEqual({ partial_session_id: expect.stringMatching(/^[0-9a-f]{64}$/), two_factor_authentication_methods: ['totp'] });
    // The next step's code: this step's was spent on the setup.
    const otp = await generate({ secret: started.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const signedIn = await Session.create({ ...guarded, otp, partial_session_id: challenged.data.partial_session_id });
    expect(signedIn.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('copies and moves with the SDK\'s file actions', async () => {
    await File.uploadData('sdk/actions/original.txt', 'act on me');
    const original = await File.find('sdk/actions/original.txt');
    await original.copyTo('sdk/actions/copy.txt');
    await original.moveTo('sdk/actions/moved/renamed.txt');
    const listed = await Folder.listFor('sdk/actions');
    expect(listed.map((f: any) => f.path)).toEqual(['sdk/actions/moved', 'sdk/actions/copy.txt']);
    expect(await (await File.find('sdk/actions/moved/renamed.txt')).downloadToString()).toBe('act on me');
    expect(await (await File.find('sdk/actions/copy.txt')).downloadToString()).toBe('act on me');
  });

  it('follows the listing cursor to the end', async () => {
    for (let i = 0; i < 5; i += 1) await File.uploadData(`sdk/paged/f${i}.txt`, `file ${i}`);
    const all = await Folder.listFor('sdk/paged', { per_page: 2 });
    expect(all.map((f: any) => f.display_name)).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt']);
  });

  it('sorts a listing with sort_by as the SDK sends it, following the cursor through ties', async () => {
    for (const [name, text] of [['b.txt', 'bb'], ['a.txt', 'aaaa'], ['c.txt', 'cc'], ['d.txt', 'd']]) await File.uploadData(`sdk/sorted/${name}`, text);
    await Folder.create('sdk/sorted/folder', {});
    const bySize = await Folder.listFor('sdk/sorted', { sort_by: { size: 'desc' }, per_page: 2 });
    expect(bySize.map((f: any) => f.display_name)).toEqual(['folder', 'a.txt', 'c.txt', 'b.txt', 'd.txt']);
    const byName = await Folder.listFor('sdk/sorted', { sort_by: { path: 'desc' }, per_page: 2 });
    expect(byName.map((f: any) => f.display_name)).toEqual(['folder', 'd.txt', 'c.txt', 'b.txt', 'a.txt']);
    const unknown = await Folder.listFor('sdk/sorted', { sort_by: { color: 'asc' } }).catch((error: any) => error);
    expect(unknown.constructor.name).toBe('BadRequest_InvalidSortFieldError');
    const two = await Folder.listFor('sdk/sorted', { sort_by: { size: 'asc', path: 'asc' } }).catch((error: any) => error);
    expect(two.constructor.name).toBe('BadRequest_MultipleSortParamsNotAllowedError');
  });

  it('searches with Folder.listFor as the SDK sends it: search, search_all, filter and type, refusing what it cannot honour', async () => {
    for (const name of ['Budget-2024.xlsx', 'budget-2025.xlsx', 'notes.txt', 'deeper/budget-old.xlsx']) await File.uploadData(`sdk/search/${name}`, name);
    const inFolder = await Folder.listFor('sdk/search', { search: 'BUDGET' });
    expect(inFolder.map((f: any) => f.path)).toEqual(['sdk/search/Budget-2024.xlsx', 'sdk/search/budget-2025.xlsx']);
    // search_all walks every folder below, one match a page here, the SDK following the cursor.
    const everywhere = await Folder.listFor('sdk', { search: 'budget', search_all: true, per_page: 1 });
    expect(everywhere.map((f: any) => [f.path, f.permissions])).toEqual([
      ['sdk/search/Budget-2024.xlsx', 'lrwd'], ['sdk/search/budget-2025.xlsx', 'lrwd'], ['sdk/search/deeper/budget-old.xlsx', 'lrwd'],
    ]);
    // From the root, the folder the member cannot see stays unseen.
    expect((await Folder.listFor('/', { search: 'elsewhere', search_all: true })).map((f: any) => f.path)).toEqual([]);
    expect((await Folder.listFor('sdk/search', { filter: '*.TXT' })).map((f: any) => f.path)).toEqual(['sdk/search/notes.txt']);
    expect((await Folder.listFor('sdk/search', { type: 'folder' })).map((f: any) => f.path)).toEqual(['sdk/search/deeper']);
    const malformed = await Folder.listFor('sdk/search', { filter: '[abc' }).catch((error: any) => error);
    expect(malformed.constructor.name).toBe('BadRequest_RequestParamsInvalidError');
    const metadata = await Folder.listFor('sdk/search', { search: 'x', search_custom_metadata_key: 'department' }).catch((error: any) => error);
    expect(metadata.constructor.name).toBe('BadRequest_RequestParamsInvalidError');
  });

  it('reads History with the SDK\'s own calls: the site, sign-ins, a user, a folder, a file, and an export', async () => {
    const local = path.join(work, 'history.txt');
    fs.writeFileSync(local, 'recorded\n');
    await File.uploadFile('sdk/history.txt', local);
    const asAdmin = { apiKey: KEY };
    const site = await History.list({ per_page: 100 }, asAdmin);
    expect(site.length).toBeGreaterThan(0);
    const upload = site.find((action: any) => action.getPath() === 'sdk/history.txt');
    expect(upload).toBeDefined();
    expect(upload.getAction()).toBe('create');
    expect(upload.getInterface()).toBe('restapi');
    expect(upload.getUsername()).toBe('sdk-member');

    // The member sees its own actions; the folder's and the file's lists show the upload.
    const mine = await History.list({ sort_by: { created_at: 'asc' } });
    expect(mine.every((action: any) => action.getUserId() === mine[0].getUserId())).toBe(true);
    expect((await History.listForFolder('sdk', {})).map((action: any) => action.getPath())).toContain('sdk/history.txt');
    expect((await History.listForFile('sdk/history.txt', {})).map((action: any) => action.getAction())).toEqual(['create']);
    expect((await History.listForUser(upload.getUserId(), {}, asAdmin)).length).toBeGreaterThan(0);
    expect(Array.isArray(await History.listLogins({}, asAdmin))).toBe(true);

    const made = await HistoryExport.create({ query_action: 'create', start_at: '2000-01-01T00:00:00Z' }, asAdmin);
    expect(made.status).toBe('ready');
    expect((await HistoryExport.find(made.id, {}, asAdmin)).query_action).toBe('create');
    const results = await HistoryExportResult.list({ history_export_id: made.id }, asAdmin);
    expect(results.map((result: any) => result.path)).toContain('sdk/history.txt');
  });

  it('reads and writes the fields and calls of users, memberships, keys and the site as the SDK declares them', async () => {
    const asAdmin = { apiKey: KEY };
    const made = await admin('POST', '/users', { username: 'sdk-locked', password: 'a long enough sdk password' });
    expect(made.status).toBe(201);
    for (let i = 0; i < 5; i += 1) {
      const failed = await httpsRequest(`${server.baseUrl}/api/rest/v1/sessions`, {
        ca: authority.ca, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'sdk-locked', password: 'wrong' }),
      });
      expect(failed.status).toBe(401);
    }
    const locked = await User.find(made.body.id, {}, asAdmin);
    expect(locked.getLockoutExpires()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await locked.unlock();
    expect((await User.find(made.body.id, {}, asAdmin)).getLockoutExpires()).toBeNull();
    const welcome = await locked.resendWelcomeEmail().catch((error: any) => error);
    expect(welcome.type).toBe('processing-failure/mail-server-not-configured');

    const group = await admin('POST', '/groups', { name: 'sdk-group' });
    const membership = await GroupUser.create({ group_id: group.body.id, user_id: made.body.id }, asAdmin);
    expect(membership.getUsernames()).toBe('sdk-locked');

    const key = await ApiKey.create({ name: 'sdk described', description: 'made by the SDK test' }, asAdmin);
    expect(key.getDescription()).toBe('made by the SDK test');
    expect(key.getDescriptiveLabel()).toBe(`Site-wide API key "sdk described" (key ID #${key.getId()})`);

    const site = await Site.get(asAdmin);
    expect(site.getId()).toBe(1);
    expect(site.getUserLockoutWithin()).toBe(1);
    const renamed = await Site.update({ name: 'SDK site', user_lockout_lock_period: 2 }, asAdmin);
    expect([renamed.getName(), renamed.getUserLockoutLockPeriod()]).toEqual(['SDK site', 2]);
    const usage = await Site.getUsage(asAdmin);
    expect(usage.getCurrentStorage()).toBeGreaterThan(0);
    expect(usage.getCurrentStorage()).toBe(usage.attributes.bytes_stored / 1e9);
    await Site.update({ name: 'Atrium', user_lockout_lock_period: 1 }, asAdmin);
  });

  it('manages SSH public keys with the SDK\'s PublicKey calls: add, generate, list, find, rename, delete', async () => {
    const ssh2 = require('ssh2');
    const line = generateOpenSshKeyPairSync('ed25519', { comment: 'sdk@laptop' }).public.trim();
    const added = await PublicKey.create({ title: 'sdk laptop', public_key: line });
    expect(added.getTitle()).toBe('sdk laptop');
    expect(added.getFingerprint()).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    expect(added.getFingerprintSha256()).toMatch(/^[A-Za-z0-9+/]{43}$/);
    expect(added.getLastLoginAt()).toBeNull();

    const generated = await PublicKey.create({ title: 'sdk generated', generate_keypair: true, generate_algorithm: 'ed25519' });
    expect(generated.getStatus()).toBe('complete');
    const privateKey = generated.getGeneratedPrivateKey();
    expect(privateKey).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----/);
    const data = Buffer.from('signed by the generated key');
    const signature = ssh2.utils.parseKey(privateKey).sign(data);
    expect(ssh2.utils.parseKey(generated.getGeneratedPublicKey()).verify(data, signature)).toBe(true);

    const listed = await PublicKey.list({ user_id: 0 });
    expect(listed.map((key: any) => key.getTitle())).toEqual(['sdk laptop', 'sdk generated']);
    const found = await PublicKey.find(added.getId());
    expect(found.getUsername()).toBe('sdk-member');
    expect(found.getGeneratedPrivateKey()).toBeUndefined();
    const renamed = await found.update({ title: 'sdk old laptop' });
    expect(renamed.getTitle()).toBe('sdk old laptop');

    const weak = await PublicKey.create({ title: 'weak', public_key: ssh2.utils.generateKeyPairSync('rsa', { bits: 1024 }).public })
      .catch((error: any) => error);
    expect(weak.constructor.name).toBe('ProcessingFailure_ModelSaveErrorError');
    expect(weak.message).toMatch(/at least 2048/);

    await found.delete();
    await generated.delete();
    const gone = await PublicKey.find(added.getId()).catch((error: any) => error);
    expect(gone.constructor.name).toBe('NotFoundError');
    expect(await PublicKey.list({})).toEqual([]);
  });

  it('uploads a file of several parts, which Atrium joins in order', async () => {
    const size = 40 * MiB;
    const source = generated(size);
    const uploaded = await File.uploadStream('sdk/parts.bin', source.stream);
    expect(uploaded.size).toBe(size);
    expect(uploaded.sha256).toBe(source.digest());
    const found = await File.find('sdk/parts.bin');
    expect(await sha256Of(found.download_uri)).toEqual({ size, sha256: uploaded.sha256 });
  });

  it('offers several parts at once and goes on with an upload by its ref through File.beginUpload', async () => {
    const file = new File({ path: 'sdk/begun.txt' });
    const parts = await file.beginUpload({ parts: 3 });
    expect(parts.map((part: any) => part.getPartNumber())).toEqual([1, 2, 3]);
    const ref = parts[0].getRef();
    expect(parts.every((part: any) => part.getRef() === ref && part.getPath() === 'sdk/begun.txt')).toBe(true);
    expect(new Set(parts.map((part: any) => part.getUploadUri())).size).toBe(3);
    const again = await file.beginUpload({ part: 2, ref });
    expect(again.map((part: any) => [part.getRef(), part.getPartNumber()])).toEqual([[ref, 2]]);

    // Sent in parallel, the last first; the SDK's File.create ends the upload.
    const pieces = ['one, ', 'two, ', 'three'];
    const put = (index: number, uri: string) => httpsRequest(uri, { ca: authority.ca, method: 'PUT', body: pieces[index] });
    const sent = await Promise.all([put(2, parts[2].getUploadUri()), put(0, parts[0].getUploadUri()), put(1, again[0].getUploadUri())]);
    expect(sent.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const ended = await File.create('sdk/begun.txt', { action: 'end', ref });
    expect(ended.size).toBe(pieces.join('').length);
    expect(await (await File.find('sdk/begun.txt')).downloadToString()).toBe(pieces.join(''));

    const refused = (params: object) => new File({ path: 'sdk/refused.txt' }).beginUpload(params).catch((error: any) => error.constructor.name);
    expect(await refused({ part: 2, ref: 'bogus' })).toBe('NotFound_FileUploadNotFoundError');
    expect(await refused({ part: 2, ref })).toBe('NotFound_FileUploadNotFoundError');
    expect(await refused({ parts: 10_001 })).toBe('BadRequest_RequestParamsInvalidError');
    expect(await refused({ part: 2 })).toBe('BadRequest_RequestParamsRequiredError');
    expect(await refused({ with_rename: true })).toBe('BadRequest_RequestParamsInvalidError');
    const open = (await new File({ path: 'sdk/refused.txt' }).beginUpload({}))[0].getRef();
    expect(await refused({ part: 10_001, ref: open })).toBe('BadRequest_PartNumberTooLargeError');
  });

  it('round-trips a file far larger than a request may hold in memory, streaming both ways', async () => {
    // A server of its own, so that its memory before the transfer is not inflated by the tests above.
    const fresh = await startServer({ ATRIUM_DATA_DIR: path.join(work, 'large'), ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'false' });
    const size = 256 * MiB;
    const pid = fresh.child.pid as number;
    const headers = { 'X-ServiceAPI-Key': KEY };
    try {
      // Warm up (first request, first upload) before the baseline is read.
      await fetch(`${fresh.baseUrl}/api/rest/v1/files/warm.txt`, { method: 'PUT', headers, body: 'warm' });
      await sha256Of((await fetch(`${fresh.baseUrl}/api/rest/v1/files/warm.txt`, { headers }).then((r) => r.json()) as any).download_uri);
      const baseline = residentBytes(pid);
      let peak = baseline ?? 0;
      const sampler = setInterval(() => { peak = Math.max(peak, residentBytes(pid) ?? 0); }, 10);

      const source = generated(size);
      const started = Date.now();
      const put = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const request = http.request(`${fresh.baseUrl}/api/rest/v1/files/big.bin`, { method: 'PUT', headers: { ...headers, 'content-length': String(size) } }, (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        });
        request.on('error', reject);
        source.stream.pipe(request);
      });
      const uploadMs = Date.now() - started;
      expect(put.status).toBe(201);
      expect(put.body.size).toBe(size);
      expect(put.body.sha256).toBe(source.digest());

      const meta = await fetch(`${fresh.baseUrl}/api/rest/v1/files/big.bin`, { headers }).then((r) => r.json()) as any;
      const downloadStarted = Date.now();
      expect(await sha256Of(meta.download_uri)).toEqual({ size, sha256: put.body.sha256 });
      const downloadMs = Date.now() - downloadStarted;
      clearInterval(sampler);

      if (baseline !== undefined) {
        const growth = peak - baseline;
        process.stderr.write(
          `files-sdk: ${size / MiB} MiB up in ${uploadMs} ms (${Math.round(size / MiB / (uploadMs / 1000))} MiB/s), down in ${downloadMs} ms ` +
          `(${Math.round(size / MiB / (downloadMs / 1000))} MiB/s); server RSS ${Math.round(baseline / MiB)} MiB before, peak ${Math.round(peak / MiB)} MiB (+${Math.round(growth / MiB)} MiB)\n`,
        );
        // Streaming holds a few buffers at a time, never the file; what grows is garbage the
        // collector has not reclaimed yet (tens of MiB whatever the size), far below the file's size.
        expect(growth).toBeLessThan(size / 4);
      }
    } finally {
      await fresh.stop();
    }
  }, 120_000);
});
