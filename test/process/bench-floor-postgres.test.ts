import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOOR_MAIN, startServer, type ServerProcess } from '../../bench/server-process.js';
import { adminQuery, POSTGRES_TEST_URL, postgresServerReachable } from '../support/postgres-server.js';

const reachable = await postgresServerReachable();
if (!reachable) process.stderr.write('\nSKIPPED: the bench\'s PostgreSQL floor needs a PostgreSQL server (none reachable).\n\n');

/**
 * The bench's PostgreSQL floor (bench/floor-server.mjs with FLOOR_POSTGRES_URL): the bench runs it
 * under load, never in the suite, so the suite checks here that it answers what it was given, only
 * behind the key, and that every answer waited for a read of the data version from the server.
 */
describe.skipIf(!reachable)('bench floor on PostgreSQL [postgres]', () => {
  const schema = `atrium_floor_${randomBytes(4).toString('hex')}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-floor-test-'));
  const key = 'floor-test-key';
  let floor: ServerProcess;

  beforeAll(async () => {
    await adminQuery(`create schema ${schema}`);
    await adminQuery(`create table ${schema}.data_version (id integer primary key, version bigint not null)`);
    await adminQuery(`insert into ${schema}.data_version values (1, 7)`);
    fs.writeFileSync(path.join(dir, 'bodies.json'), JSON.stringify({ '/listing': '[{"path":"a"}]' }));
    floor = await startServer(FLOOR_MAIN, {
      FLOOR_BODIES_FILE: path.join(dir, 'bodies.json'),
      FLOOR_KEY_HEADER: 'X-Key',
      FLOOR_KEY_SHA256: createHash('sha256').update(key).digest('hex'),
      FLOOR_POSTGRES_URL: `${POSTGRES_TEST_URL}?options=-c%20search_path%3D${schema}`,
    }, '/health');
  });
  afterAll(async () => {
    await floor?.stop();
    await adminQuery(`drop schema if exists ${schema} cascade`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers the body it holds behind the key, after reading the data version', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${floor.baseUrl}/listing`, { headers: { 'X-Key': key } })));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual([{ path: 'a' }]);
    }
    expect((await fetch(`${floor.baseUrl}/listing`, { headers: { 'X-Key': 'wrong' } })).status).toBe(401);
    expect((await fetch(`${floor.baseUrl}/elsewhere`, { headers: { 'X-Key': key } })).status).toBe(404);
    // Without the table the read fails, and so does the request: the answers above did read it.
    await adminQuery(`drop table ${schema}.data_version`);
    expect((await fetch(`${floor.baseUrl}/listing`, { headers: { 'X-Key': key } })).status).toBe(500);
  });
});
