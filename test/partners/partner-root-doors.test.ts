import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';
import { testDatabaseTargets } from '../support/databases.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { call, startSftpTestApp, type SftpTestApp } from '../sftp/sftp-fixture.js';
import { DavClient } from '../webdav/dav-client.js';
import { buildPartnerRoot, PARTNER_PASSWORD, type PartnerRootSite } from './partner-root-site.js';

/**
 * The `partner_root` layout on WebDAV and SFTP (docs/partners.md, "The Partner root"): a Partner
 * user's `/dav/` and SFTP `/` are its Partner's root folder, with its password or its API key;
 * every href, name and lock root is relative to it, and nothing outside it can be named. SFTP is
 * also driven by OpenSSH's own `sftp` client in batch mode, signed in with a registered key.
 */
const sftpFound = fs.existsSync('/usr/bin/sftp');
const sftpRequired = process.env.ATRIUM_TEST_REQUIRE_OPENSSH === '1';
if (!sftpFound && !sftpRequired) process.stderr.write('\nSKIPPED: the OpenSSH sftp case needs OpenSSH\'s client (apt-get install openssh-client).\n\n');

const propfindBody = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:lockdiscovery/></D:prop></D:propfind>';
const lockBody = '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
const hrefsOf = (xml: string) => [...xml.matchAll(/<D:response><D:href>([^<]+)<\/D:href>/g)].map((match) => decodeURIComponent(match[1] as string)).sort();

/** Runs a program with HOME in a temporary folder (no user's own ssh settings apply); never throws on a non-zero exit. */
function runTool(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve({ code: error === null ? 0 : (error.code as number), output: `${stdout}${stderr}` });
    });
  });
}

describe.each(testDatabaseTargets())('the Partner root on WebDAV and SFTP [$name]', (target) => {
  let t: SftpTestApp;
  let s: SiteFixture;
  let p: PartnerRootSite;
  let work: string;
  beforeAll(async () => {
    t = await startSftpTestApp(target);
    s = await buildSite(t);
    p = await buildPartnerRoot(t, s);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-partner-root-'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const adminRead = async (sitePath: string) => (await t.api.get(`/files/${sitePath}?action=stream`, { key: s.admin1.key })).text;

  it('WebDAV: `/dav/` is the Partner root, by password or API key; PROPFIND, GET and PUT are relative to it', async () => {
    for (const dav of [new DavClient(t.baseUrl, [p.username, PARTNER_PASSWORD]), new DavClient(t.baseUrl, [p.key, 'x'])]) {
      const listed = await dav.propfind('', '1', propfindBody);
      expect(listed.status).toBe(207);
      expect(hrefsOf(listed.text)).toEqual(['/dav/', '/dav/docs/', '/dav/hello.txt']);
      const got = await dav.get('hello.txt');
      expect(got.status).toBe(200);
      expect(got.text).toBe('hello');
    }
    const dav = new DavClient(t.baseUrl, [p.username, PARTNER_PASSWORD]);
    expect((await dav.put('docs/dav.txt', 'by dav')).status).toBe(201);
    expect(await adminRead(`${p.root}/docs/dav.txt`)).toBe('by dav');
    expect(hrefsOf((await dav.propfind('docs', '1', propfindBody)).text)).toEqual(['/dav/docs/', '/dav/docs/a.txt', '/dav/docs/dav.txt']);

    // Outside the root: a sibling's name is a folder inside it that is not there, `..` is refused.
    expect((await dav.propfind(encodeURIComponent(`${p.name}-other`), '0', propfindBody)).status).toBe(404);
    expect((await dav.get(`..%2F${encodeURIComponent(`${p.name}-other`)}%2Fsecret.txt`)).status).toBe(400);
    expect((await dav.get(`${p.root}-other/secret.txt`)).status).toBe(404);
    // The root stays: not deleted, not moved.
    expect((await dav.delete('')).status).toBe(400);
    // A move of the root lands inside itself, which WebDAV answers 403 (RFC 4918 9.8.5).
    expect((await dav.transfer('MOVE', '', 'elsewhere')).status).toBe(403);
    expect((await dav.propfind('', '0', propfindBody)).status).toBe(207);
    expect(await adminRead(`${p.root}/hello.txt`)).toBe('hello');
  });

  it('WebDAV: a lock\'s root is shown relative to the Partner root', async () => {
    const dav = new DavClient(t.baseUrl, [p.username, PARTNER_PASSWORD]);
    expect((await dav.put('locked.txt', 'x')).status).toBe(201);
    const locked = await dav.call('LOCK', 'locked.txt', { headers: { 'Content-Type': 'application/xml', Timeout: 'Second-600' }, body: lockBody });
    expect(locked.status).toBe(200);
    expect(locked.text).toContain('<D:lockroot><D:href>/dav/locked.txt</D:href></D:lockroot>');
    const discovered = await dav.propfind('', '1', propfindBody);
    expect(discovered.text).toContain('<D:lockroot><D:href>/dav/locked.txt</D:href></D:lockroot>');
    expect(discovered.text).not.toContain(p.root);
  });

  it('SFTP: `/` is the Partner root, by password or API key; user_root lands relative to it', async () => {
    for (const password of [PARTNER_PASSWORD, p.key]) {
      const c = await t.connect({ username: p.username, password });
      try {
        expect(await call((done) => c.sftp.realpath('.', done))).toBe('/');
        const names = (await call<{ filename: string }[]>((done) => c.sftp.readdir('/', done))).map((entry) => entry.filename).sort();
        expect(names).toEqual(expect.arrayContaining(['docs', 'hello.txt']));
        expect(names).not.toContain(`${p.name}-other`);
        expect((await call<Buffer>((done) => c.sftp.readFile('/hello.txt', done))).toString()).toBe('hello');
        // SFTP resolves `..` itself: above `/` is `/`.
        expect((await call<Buffer>((done) => c.sftp.readFile('/../hello.txt', done))).toString()).toBe('hello');
        await expect(call((done) => c.sftp.stat(`/../${p.name}-other/secret.txt`, done))).rejects.toMatchObject({ code: 2 });
      } finally {
        c.close();
      }
    }
    expect((await t.api.patch(`/users/${p.userId}`, { user_root: 'docs' }, { key: s.admin1.key })).status).toBe(200);
    const landed = await t.connect({ username: p.username, password: p.key });
    try {
      expect(await call((done) => landed.sftp.realpath('.', done))).toBe('/docs');
    } finally {
      landed.close();
      expect((await t.api.patch(`/users/${p.userId}`, { user_root: '' }, { key: s.admin1.key })).status).toBe(200);
    }
  });

  it.skipIf(!sftpFound && !sftpRequired)('SFTP: OpenSSH sftp in batch mode lists, gets and puts in the Partner root', async () => {
    const pair = generateOpenSshKeyPairSync('ed25519');
    const identity = path.join(work, 'id_ed25519');
    fs.writeFileSync(identity, pair.private, { mode: 0o600 });
    const registered = await t.api.post('/public_keys', { user_id: p.userId, title: 'partner laptop', public_key: pair.public }, { key: s.admin1.key });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const hostKey = fs.readFileSync(path.join(t.dataDir, 'sftp-host-keys', 'ssh_host_ed25519_key.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
    const knownHosts = path.join(work, 'known_hosts');
    fs.writeFileSync(knownHosts, `[127.0.0.1]:${t.sftpServer.port} ${hostKey}\n`);
    fs.writeFileSync(path.join(work, 'up.txt'), 'uploaded by openssh');
    const batch = path.join(work, 'batch.txt');
    fs.writeFileSync(batch, ['ls -1 /', 'ls -1 /docs', 'get /hello.txt got.txt', 'put up.txt /docs/up.txt', 'pwd'].join('\n') + '\n');
    const result = await runTool('sftp', [
      '-b', batch, '-P', String(t.sftpServer.port),
      '-o', `IdentityFile=${identity}`, '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=yes',
      '-o', `UserKnownHostsFile=${knownHosts}`, '-o', 'GlobalKnownHostsFile=/dev/null',
      `${p.username}@127.0.0.1`,
    ], work);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/^\/hello\.txt$/m);
    expect(result.output).toMatch(/^\/docs\/a\.txt$/m);
    expect(result.output).toContain('Remote working directory: /');
    expect(result.output).not.toContain(p.root);
    expect(fs.readFileSync(path.join(work, 'got.txt'), 'utf8')).toBe('hello');
    expect(await adminRead(`${p.root}/docs/up.txt`)).toBe('uploaded by openssh');
  });
});
