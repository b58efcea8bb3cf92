import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run longest (25 s or more in a whole run), each started first so that it is not
 * the last one still running while the other workers sit idle: the console in Chromium (about a
 * minute and a half per database), the bench's smoke run, the properties checked against their
 * reference models, and the files that start a server per test. Vitest orders by the durations of
 * the previous run when it has them; a fresh clone (CI) has none, and then it would go by file
 * size, which knows nothing of a browser or of a server started per test: the two differential
 * properties then started in the last minute of the run and ended it 30 s after everything else.
 */
const LONGEST = [
  'test/process/console/console-browser-sqlite.test.ts',
  'test/process/console/console-browser-postgres.test.ts',
  'test/grants/delegation-invariant.property.test.ts',
  'test/process/bench-smoke-services.test.ts',
  'test/process/bench-smoke-site.test.ts',
  'test/process/bench-smoke-transfers.test.ts',
  'test/access/confined-operations.test.ts',
  'test/process/console/partners-console.test.ts',
  'test/bundles/link-delegation.property.test.ts',
  'test/process/console/automations-console.test.ts',
  'test/process/console/shared-links-console.test.ts',
  'test/process/console/share-link-page.test.ts',
  'test/webdav/differential.property.test.ts',
  'test/http/unique-constraints.test.ts',
  'test/process/console/ssh-keys-browser.test.ts',
  'test/http/simultaneous-writes.test.ts',
  'test/process/console/history-browser.test.ts',
  'test/sftp/differential.property.test.ts',
  'test/process/sftp-lftp.test.ts',
  'test/process/backup-doc.test.ts',
  'test/process/database-outage.test.ts',
  'test/process/sftp-sshfs.test.ts',
  'test/process/metrics.test.ts',
];

/**
 * Process files (under test/process/) and in-process files queued in turn, one of the first to
 * four of the others (about their ratio). Both kinds run in one project, so a worker keeps its
 * modules loaded whichever kind comes next, and the mix can be as fine as it likes.
 */
const PROCESS_FILES_AT_A_TIME = 1;
const IN_PROCESS_FILES_AT_A_TIME = 4;

/** Whether a file starts real server processes (vitest.config.ts): it mostly waits on them. */
function isProcessFile(spec: TestSpecification): boolean {
  return spec.moduleId.includes('/test/process/');
}

/**
 * The process files, which mostly wait on the servers, browsers and clients they start, overlap
 * with the in-process files, which mostly compute. The order: the longest files above, then a
 * process file and a few in-process ones in turn, each kind in Vitest's own order.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const longestRank = (spec: TestSpecification) => LONGEST.findIndex((file) => spec.moduleId.endsWith(file));
    const longest = sorted.filter((spec) => longestRank(spec) >= 0).sort((a, b) => longestRank(a) - longestRank(b));
    const rest = sorted.filter((spec) => longestRank(spec) < 0);
    const processFiles = rest.filter(isProcessFile);
    const inProcess = rest.filter((spec) => !isProcessFile(spec));
    const interleaved: TestSpecification[] = [];
    while (processFiles.length > 0 || inProcess.length > 0) {
      interleaved.push(...processFiles.splice(0, PROCESS_FILES_AT_A_TIME), ...inProcess.splice(0, IN_PROCESS_FILES_AT_A_TIME));
    }
    return [...longest, ...interleaved];
  }
}
