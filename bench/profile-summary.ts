import fs from 'node:fs';

/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): the functions with the most samples of their
 * own, and with the most samples including what they called. Run on a profile of Atrium under
 * load, e.g. `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" npm run bench`, then
 * `node dist/.bench/bench/profile-summary.js prof/<file>.cpuprofile`.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

function summarise(profile: Profile, rows: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const name = (node: ProfileNode) => {
    const where = node.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(dist|src)\//, '$1/');
    return `${node.callFrame.functionName || '(anonymous)'} ${where}:${node.callFrame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const sample of profile.samples) {
    const node = byId.get(sample);
    if (node === undefined) continue;
    self.set(name(node), (self.get(name(node)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) {
      const key = name(byId.get(id) as ProfileNode);
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
      seen.add(key);
    }
  }
  const total = profile.samples.length;
  const top = (counts: Map<string, number>) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, rows)
    .map(([key, count]) => `${((100 * count) / total).toFixed(1).padStart(5)}%  ${key}`).join('\n');
  return `self time\n${top(self)}\n\nincluding callees\n${top(inclusive)}\n`;
}

const [file, rows] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: node dist/.bench/bench/profile-summary.js <file.cpuprofile> [rows]\n');
  process.exit(2);
}
process.stdout.write(summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, Number(rows ?? 30)));
