import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probe } from './measure.js';
import type { Scenario } from './scenarios.js';
import { FLOOR_MAIN, startServer, type ServerProcess } from './server-process.js';

/** The floor's row in the report (kind `floor`): what the listing could cost at the very least. */
export const FLOOR_SCENARIO = 'floor: the listing\'s answer behind an API-key check, bare Fastify';

/**
 * Starts the floor server (bench/floor-server.mjs) with the answer Atrium gave to `listing` and
 * the listing's API key, so the same requests, under the same load, get the same bytes after the
 * same key check and nothing else. The ratio of this floor to the bare hello is the most any
 * listing could reach against the baseline on this machine (docs/benchmarks.md).
 */
export async function startListingFloor(atriumUrl: string, listing: Scenario): Promise<{ server: ServerProcess; scenario: Scenario }> {
  const answer = await probe(atriumUrl, listing.request);
  const wrong = listing.check(answer.status, answer.body);
  if (wrong !== undefined) throw new Error(`the listing answered wrongly: ${wrong}`);
  const [header, secret] = Object.entries(listing.request.headers)[0] ?? ['', ''];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-floor-'));
  const bodyFile = path.join(dir, 'listing.json');
  fs.writeFileSync(bodyFile, JSON.stringify(answer.body));
  try {
    const server = await startServer(FLOOR_MAIN, {
      FLOOR_BODY_FILE: bodyFile,
      FLOOR_KEY_HEADER: header,
      FLOOR_KEY_SHA256: createHash('sha256').update(secret).digest('hex'),
    }, '/health');
    return { server, scenario: { ...listing, name: FLOOR_SCENARIO } };
  } finally {
    // The server has read the body at its start.
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
