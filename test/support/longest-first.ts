import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run longest, each started first so that it is not the last one still running
 * while the other worker sits idle: the console in Chromium (about a minute per database), the
 * bench's smoke run, and the database-outage and delegation-property files. Vitest orders by the
 * durations of the previous run when it has them; a fresh clone (CI) has none, and then it would
 * go by file size, which knows nothing of a browser or of a server started per test.
 */
const LONGEST = [
  'test/process/console/console-browser-sqlite.test.ts',
  'test/process/console/console-browser-postgres.test.ts',
  'test/process/bench-smoke.test.ts',
  'test/grants/delegation-invariant.property.test.ts',
  'test/process/database-outage.test.ts',
];

/**
 * Both projects share one pool (the same `sequence.groupOrder`), so the process files, which
 * mostly wait on the servers, browsers and clients they start, overlap with the in-process files,
 * which mostly compute. The order: the longest files above, then one of each project in turn,
 * each project's files in Vitest's own order, so that the cores are kept busy all along.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const longestRank = (spec: TestSpecification) => LONGEST.findIndex((file) => spec.moduleId.endsWith(file));
    const longest = sorted.filter((spec) => longestRank(spec) >= 0).sort((a, b) => longestRank(a) - longestRank(b));
    const rest = sorted.filter((spec) => longestRank(spec) < 0);
    const processFiles = rest.filter((spec) => spec.project.name === 'process');
    const inProcess = rest.filter((spec) => spec.project.name !== 'process');
    const alternated: TestSpecification[] = [];
    for (let i = 0; i < Math.max(processFiles.length, inProcess.length); i += 1) {
      const fromProcess = processFiles[i];
      const fromInProcess = inProcess[i];
      if (fromProcess !== undefined) alternated.push(fromProcess);
      if (fromInProcess !== undefined) alternated.push(fromInProcess);
    }
    return [...longest, ...alternated];
  }
}
