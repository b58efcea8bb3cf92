import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probe } from './measure.js';
import type { Scenario } from './scenarios.js';
import { FLOOR_MAIN, startServer, type ServerProcess } from './server-process.js';

/** The name of a scenario's floor row (kind `floor`): what that request could cost at the very least. */
export const floorName = (scenario: string) => `floor: ${scenario}`;

/**
 * Starts the floor server (bench/floor-server.mjs) with the answers Atrium gave to `scenarios`
 * (all sent with the same API key), so the same requests, under the same load, get the same bytes
 * after the same key check and nothing else. With `postgresUrl` (Atrium's own database URL, its
 * schema included) each request also waits for one read of the data version per event-loop turn,
 * the round trip a PostgreSQL node cannot skip. A floor's ratio to the bare hello is the most any
 * server could reach against the baseline on this machine (docs/benchmarks.md).
 */
export async function startFloor(atriumUrl: string, scenarios: readonly Scenario[], postgresUrl?: string): Promise<{ server: ServerProcess; scenarios: Scenario[] }> {
  const bodies: Record<string, string> = {};
  for (const scenario of scenarios) {
    const answer = await probe(atriumUrl, scenario.request);
    const wrong = scenario.check(answer.status, answer.body);
    if (wrong !== undefined) throw new Error(`${scenario.name} answered wrongly: ${wrong}`);
    bodies[scenario.request.path] = JSON.stringify(answer.body);
  }
  const credentials = new Set(scenarios.map((s) => JSON.stringify(s.request.headers)));
  if (credentials.size !== 1) throw new Error('the floor checks one API key: its scenarios must send the same');
  const [header, secret] = Object.entries(scenarios[0]?.request.headers ?? {})[0] ?? ['', ''];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-floor-'));
  const bodiesFile = path.join(dir, 'bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  try {
    const server = await startServer(FLOOR_MAIN, {
      FLOOR_BODIES_FILE: bodiesFile,
      FLOOR_KEY_HEADER: header,
      FLOOR_KEY_SHA256: createHash('sha256').update(secret).digest('hex'),
      ...(postgresUrl === undefined ? {} : { FLOOR_POSTGRES_URL: postgresUrl }),
    }, '/health');
    return { server, scenarios: scenarios.map((s) => ({ ...s, name: floorName(s.name) })) };
  } finally {
    // The server has read the bodies at its start.
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
