import { afterAll, beforeAll, describe } from 'vitest';
import { startSftpTestApp, type SftpTestApp } from '../../sftp/sftp-fixture.js';
import { testDatabaseTargets } from '../../support/databases.js';
import { describeFileContract } from './file-contract.js';
import type { FileDoor } from './file-door.js';
import { restDoor } from './rest-door.js';
import { sessionDoor } from './session-door.js';
import { sftpDoor } from './sftp-door.js';
import { webdavDoor } from './webdav-door.js';

/** Every front door to file operations runs the same contract, over one app with its SFTP door open. */
const DOORS: [string, (t: SftpTestApp) => FileDoor][] = [
  ['the file session', sessionDoor],
  ['the REST API', restDoor],
  ['WebDAV', webdavDoor],
  ['SFTP', sftpDoor],
];

describe.each(testDatabaseTargets())('the file contract [$name]', (target) => {
  let t: SftpTestApp;
  beforeAll(async () => {
    t = await startSftpTestApp(target);
  });
  afterAll(() => t.close());

  describe.each(DOORS)('through %s', (_name, makeDoor) => {
    describeFileContract(() => t, makeDoor);
  });
});
