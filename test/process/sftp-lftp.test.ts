import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runTool, siteDatabases, toolFound, useSftpClientSite, type SftpClientSite } from './sftp-client-site.js';
import { generateTree } from './webdav-tree.js';

/**
 * lftp (Debian's package) over SFTP against a running Atrium: `mirror -R` uploads a local tree of
 * nested folders, an empty folder and files of mixed sizes and names (spaces, accents, other
 * scripts, `#`, `%`, `&`, `'`, an emoji), `mirror` downloads it back, and the two trees are the
 * same byte for byte; the REST API lists the same files. Then `mirror -R --delete` carries a
 * changed and a removed file across. Signed in with a key made by ssh-keygen, the host key
 * checked strictly. Where lftp is missing this is a loud skip, unless ATRIUM_TEST_REQUIRE_LFTP=1 (CI).
 */
const lftpFound = toolFound('lftp') && toolFound('ssh');
const lftpRequired = process.env.ATRIUM_TEST_REQUIRE_LFTP === '1';
if (!lftpFound && !lftpRequired) process.stderr.write('\nSKIPPED: the lftp tests need lftp (apt-get install lftp).\n\n');

const SOURCE_TIME = new Date('2020-01-02T03:04:05Z');

/** Every file and folder under `root`, relative and `/`-separated, with each file's bytes. */
function treeOf(root: string): Map<string, Buffer | 'folder'> {
  const found = new Map<string, Buffer | 'folder'>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(root, full).split(path.sep).join('/').normalize('NFC');
    found.set(relative, entry.isDirectory() ? 'folder' : fs.readFileSync(full));
  }
  return found;
}

describe.skipIf(!lftpFound && !lftpRequired).each(siteDatabases())('lftp over SFTP against a running Atrium on $name', (target) => {
  const site = useSftpClientSite(target, { username: 'lftp-user', folder: 'shared' });
  let s: SftpClientSite;
  let source: string;
  beforeAll(() => {
    if (target.skip) return;
    s = site();
    source = path.join(s.work, 'source');
    // Long before the upload, so a time kept on the server cannot be the upload's own.
    for (const file of generateTree(source, 40, 11)) fs.utimesSync(path.join(source, file.path), SOURCE_TIME, SOURCE_TIME);
    fs.mkdirSync(path.join(source, 'empty folder'));
  });

  /** Runs lftp commands on a connection to Atrium as the user, stopping at the first that fails. */
  const lftp = (...commands: string[]) => {
    const ssh = ['ssh', '-a', '-x', ...s.sshOptions()].join(' ');
    return runTool('lftp', ['-c', [
      `set sftp:connect-program "${ssh}"`,
      'set net:max-retries 1',
      'set cmd:fail-exit yes',
      // Empty password: lftp signs in with the key and never prompts.
      `open -u ${s.username}, -p ${s.sftpPort} sftp://127.0.0.1`,
      ...commands,
    ].join('; ')], { cwd: s.work });
  };

  it.skipIf(target.skip)('mirror -R uploads a tree and mirror downloads it back byte for byte; the REST API lists the same files', async () => {
    const up = await lftp(`mirror -R --parallel=4 "${source}" shared/tree`);
    expect(up.code, up.output).toBe(0);
    const back = path.join(s.work, 'back');
    const down = await lftp(`mirror --parallel=4 shared/tree "${back}"`);
    expect(down.code, down.output).toBe(0);
    const sent = treeOf(source);
    expect(sent.get('empty folder')).toBe('folder');
    expect(treeOf(back)).toEqual(sent);

    const files = [...sent].filter(([, bytes]) => bytes !== 'folder');
    for (const [relative, bytes] of files.slice(0, 5)) expect((await s.download(`shared/tree/${relative}`)).equals(bytes as Buffer), relative).toBe(true);
    const listed = await s.admin('GET', `/folders/shared/tree/${encodeURIComponent('empty folder')}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
  }, 120_000);

  it.skipIf(target.skip)('a second mirror -R transfers nothing: every file kept the time lftp gave it', async () => {
    const again = await lftp(`mirror -R -v "${source}" shared/tree`);
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toContain('Transferring file');
    const [first] = [...treeOf(source)].find(([, bytes]) => bytes !== 'folder') as [string, Buffer];
    const entry = await s.admin('GET', `/file_actions/metadata/shared/tree/${first.split('/').map(encodeURIComponent).join('/')}`);
    expect(entry.body).toMatchObject({ provided_mtime: '2020-01-02T03:04:05Z' });
  }, 120_000);

  it.skipIf(target.skip)('mirror -R --delete carries a changed file and a removed one across', async () => {
    const files = [...treeOf(source)].filter(([, bytes]) => bytes !== 'folder').map(([relative]) => relative);
    const [changed, removed] = files as [string, string];
    fs.writeFileSync(path.join(source, changed), 'changed, and of another size');
    fs.rmSync(path.join(source, removed));
    const again = await lftp(`mirror -R --delete "${source}" shared/tree`);
    expect(again.code, again.output).toBe(0);
    expect((await s.download(`shared/tree/${changed}`)).toString()).toBe('changed, and of another size');
    expect((await s.admin('GET', `/files/shared/tree/${removed.split('/').map(encodeURIComponent).join('/')}`)).status).toBe(404);
    const back = path.join(s.work, 'back-again');
    expect((await lftp(`mirror shared/tree "${back}"`)).code).toBe(0);
    expect(treeOf(back)).toEqual(treeOf(source));
  }, 120_000);
});
