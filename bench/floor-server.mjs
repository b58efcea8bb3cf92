// The floor under the hot requests: bare Fastify checks an API key the way Atrium does (its
// SHA-256 compared in constant time with the stored one) and sends a body it already holds, the
// request's own answer from Atrium. No cache, no hooks: whatever Atrium costs above this is its
// own work. Plain JavaScript so it needs no build step; it prints its port the way Atrium's log does.
//
// With FLOOR_POSTGRES_URL it is the floor of a PostgreSQL deployment: before answering, each
// request waits for one read of Atrium's data version from the same server, shared by the
// requests that arrived in the same turn of the event loop and one at a time, as Atrium reads it
// (src/db/data-version.ts). That round trip is what lets a node see another node's change on the
// very next request; the floor pays it and nothing else.
import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import process from 'node:process';
import Fastify from 'fastify';
import pg from 'pg';

/** FLOOR_BODIES_FILE: a JSON object from request URL to the body Atrium answered it with. */
const bodies = new Map(Object.entries(JSON.parse(fs.readFileSync(process.env.FLOOR_BODIES_FILE ?? '', 'utf8'))));
const header = (process.env.FLOOR_KEY_HEADER ?? '').toLowerCase();
const storedHash = Buffer.from(process.env.FLOOR_KEY_SHA256 ?? '', 'hex');
const postgresUrl = process.env.FLOOR_POSTGRES_URL;

/** One read shared by every request that asks before it begins, at most one under way (Atrium's sharedReads). */
function sharedReads(read) {
  let waiting;
  let running;
  return () => {
    waiting ??= (async () => {
      if (running === undefined) await new Promise((resolve) => setImmediate(resolve));
      else await running.catch(() => undefined);
      waiting = undefined;
      const reading = read();
      running = reading;
      try {
        return await reading;
      } finally {
        if (running === reading) running = undefined;
      }
    })();
    return waiting;
  };
}

const pool = postgresUrl === undefined ? undefined : new pg.Pool({ connectionString: postgresUrl, max: 10 });
const dataVersion = pool === undefined ? undefined : sharedReads(async () => String((await pool.query('select version from data_version where id = 1')).rows[0]?.version));

const app = Fastify({ logger: false });
app.get('/health', async () => ({ ok: true }));
app.get('/*', async (request, reply) => {
  const given = request.headers[header];
  const hash = createHash('sha256').update(typeof given === 'string' ? given : '').digest();
  if (hash.length !== storedHash.length || !timingSafeEqual(hash, storedHash)) return reply.code(401).send({ error: 'unauthenticated' });
  const body = bodies.get(request.url);
  if (body === undefined) return reply.code(404).send({ error: 'not in the floor' });
  if (dataVersion !== undefined) await dataVersion();
  return reply.type('application/json; charset=utf-8').send(body);
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`Server listening at ${address}\n`);
process.once('SIGTERM', () => app.close().then(() => pool?.end()).then(() => process.exit(0)));
