import { afterAll, beforeAll, describe } from 'vitest';
import { testDatabaseTargets } from '../../support/databases.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { describeFileContract } from './file-contract.js';
import type { FileDoor } from './file-door.js';
import { restDoor } from './rest-door.js';
import { sessionDoor } from './session-door.js';

/** Every front door to file operations runs the same contract; WebDAV and SFTP join the list. */
const DOORS: [string, (t: TestApp) => FileDoor][] = [
  ['the file session', sessionDoor],
  ['the REST API', restDoor],
];

describe.each(testDatabaseTargets())('the file contract [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());

  describe.each(DOORS)('through %s', (_name, makeDoor) => {
    describeFileContract(() => t, makeDoor);
  });
});
