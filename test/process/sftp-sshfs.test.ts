import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool, siteDatabases, toolFound, useSftpClientSite, type SftpClientSite } from './sftp-client-site.js';

/**
 * sshfs (Debian's package, FUSE) mounts a running Atrium's SFTP and ordinary file calls go through
 * the mount: a folder of 301 files lists once each (sshfs sends its READDIRs two and four at a
 * time), `echo hi > new.txt` creates a file (sshfs stats it right behind the OPEN), append,
 * truncate, read and write on one open file, renames and deletes of files and folders, and the
 * save of editors and rsync (a temporary file renamed over the original). The REST API sees each
 * result. Signed in with a key made by ssh-keygen, the host key checked strictly.
 * Where sshfs (or FUSE) is missing this is a loud skip, unless ATRIUM_TEST_REQUIRE_SSHFS=1 (CI).
 */
const sshfsFound = toolFound('sshfs') && toolFound('fusermount') && toolFound('sftp') && fs.existsSync('/dev/fuse');
const sshfsRequired = process.env.ATRIUM_TEST_REQUIRE_SSHFS === '1';
if (!sshfsFound && !sshfsRequired) process.stderr.write('\nSKIPPED: the sshfs tests need sshfs and FUSE (apt-get install sshfs; /dev/fuse).\n\n');

describe.skipIf(!sshfsFound && !sshfsRequired).each(siteDatabases())('sshfs over SFTP against a running Atrium on $name', (target) => {
  const site = useSftpClientSite(target, { username: 'sshfs-user', folder: 'shared' });
  let s: SftpClientSite;
  let mountPoint = '';
  /** A path inside the granted folder, through the mount. */
  const mounted = (relative: string) => path.join(mountPoint, 'shared', relative);
  const shell = (command: string) => runTool('sh', ['-c', command], { cwd: mounted('') });

  beforeAll(async () => {
    if (target.skip) return;
    s = site();
    mountPoint = path.join(s.work, 'mnt');
    fs.mkdirSync(mountPoint);
    const mount = await runTool('sshfs', ['-p', String(s.sftpPort), ...s.sshOptions(), `${s.username}@127.0.0.1:/`, mountPoint]);
    expect(mount.code, mount.output).toBe(0);
  }, 60_000);

  afterAll(async () => {
    if (target.skip || mountPoint === '') return;
    // Before the server stops and the folder is removed: a mount left behind would outlive the test.
    const unmounted = await runTool('fusermount', ['-u', mountPoint]);
    if (unmounted.code !== 0) await runTool('fusermount', ['-u', '-z', mountPoint]);
  });

  it.skipIf(target.skip)('lists a folder of 301 files once each, as the REST API does', async () => {
    const names = Array.from({ length: 301 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
    // Put there by OpenSSH's sftp (which sshfs runs on), so that only the listing is sshfs's.
    const local = path.join(s.work, 'many');
    fs.mkdirSync(local);
    for (const name of names) fs.writeFileSync(path.join(local, name), name);
    fs.writeFileSync(path.join(s.work, 'put-many.txt'), `put -r ${local} shared/many\n`);
    const put = await runTool('sftp', ['-b', path.join(s.work, 'put-many.txt'), '-P', String(s.sftpPort), ...s.sshOptions(), `${s.username}@127.0.0.1`]);
    expect(put.code, put.output).toBe(0);
    const listed = fs.readdirSync(mounted('many'));
    expect(listed).toHaveLength(301);
    expect([...listed].sort()).toEqual(names);
    const rest = await s.admin('GET', '/folders/shared/many?per_page=1000');
    expect((rest.body as { path: string }[]).map((entry) => entry.path.slice('shared/many/'.length)).sort()).toEqual(names);
  }, 120_000);

  it.skipIf(target.skip)('creates with `echo hi > new.txt`, appends, overwrites, truncates, and reads and writes one open file', async () => {
    fs.mkdirSync(mounted('docs'));
    const created = await shell('echo hi > docs/new.txt && cat docs/new.txt');
    expect(created.code, created.output).toBe(0);
    expect(created.output).toBe('hi\n');
    expect((await s.download('shared/docs/new.txt')).toString()).toBe('hi\n');

    fs.appendFileSync(mounted('docs/new.txt'), 'more\n');
    expect(fs.readFileSync(mounted('docs/new.txt'), 'utf8')).toBe('hi\nmore\n');
    fs.writeFileSync(mounted('docs/new.txt'), 'short');
    expect(fs.readFileSync(mounted('docs/new.txt'), 'utf8')).toBe('short');
    fs.truncateSync(mounted('docs/new.txt'), 2);
    expect(fs.readFileSync(mounted('docs/new.txt'), 'utf8')).toBe('sh');
    expect((await s.download('shared/docs/new.txt')).toString()).toBe('sh');

    // Read back what was just written, on the same open file (O_RDWR).
    const both = fs.openSync(mounted('docs/both.txt'), 'w+');
    fs.writeSync(both, 'abcdef', 0);
    const buffer = Buffer.alloc(6);
    expect(fs.readSync(both, buffer, 0, 6, 0)).toBe(6);
    expect(buffer.toString()).toBe('abcdef');
    fs.closeSync(both);

    const payload = randomBytes(3 * 1024 * 1024 + 5);
    fs.writeFileSync(mounted('docs/payload.bin'), payload);
    expect(fs.readFileSync(mounted('docs/payload.bin')).equals(payload)).toBe(true);
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    expect(sha256(await s.download('shared/docs/payload.bin'))).toBe(sha256(payload));
    expect(fs.readdirSync(mounted('docs')).sort()).toEqual(['both.txt', 'new.txt', 'payload.bin']);
  }, 120_000);

  it.skipIf(target.skip)('renames and deletes files and folders; a folder with something in it is not removed', async () => {
    fs.mkdirSync(mounted('tree/inner'), { recursive: true });
    fs.writeFileSync(mounted('tree/inner/leaf.txt'), 'leaf');
    fs.renameSync(mounted('tree/inner/leaf.txt'), mounted('tree/leaf.txt'));
    fs.renameSync(mounted('tree/inner'), mounted('tree/renamed'));
    expect(fs.readdirSync(mounted('tree')).sort()).toEqual(['leaf.txt', 'renamed']);
    expect(() => fs.rmdirSync(mounted('tree'))).toThrow(/ENOTEMPTY|EPERM|EIO/);
    fs.unlinkSync(mounted('tree/leaf.txt'));
    fs.rmdirSync(mounted('tree/renamed'));
    fs.rmdirSync(mounted('tree'));
    expect(fs.existsSync(mounted('tree'))).toBe(false);
    expect((await s.admin('GET', '/files/shared/tree')).status).toBe(404);
  }, 60_000);

  it.skipIf(target.skip)('saves as editors and rsync do: a temporary file written, then renamed over the original', async () => {
    fs.writeFileSync(mounted('report.txt'), 'first draft');
    const temporary = mounted('.report.txt.swp');
    fs.writeFileSync(temporary, 'final version');
    fs.renameSync(temporary, mounted('report.txt'));
    expect(fs.readFileSync(mounted('report.txt'), 'utf8')).toBe('final version');
    expect((await s.download('shared/report.txt')).toString()).toBe('final version');
    expect(fs.existsSync(temporary)).toBe(false);
    expect((await s.admin('GET', '/files/shared/.report.txt.swp')).status).toBe(404);
  }, 60_000);

  it.skipIf(target.skip)('a create where the user may not write fails and leaves nothing behind', async () => {
    const refused = await runTool('sh', ['-c', `echo hi > '${path.join(mountPoint, 'outside.txt')}'`]);
    expect(refused.code).not.toBe(0);
    expect((await s.admin('GET', '/files/outside.txt')).status).toBe(404);
  }, 60_000);
});
