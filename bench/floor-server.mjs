// The floor under the key-authenticated listing: bare Fastify checks an API key the way Atrium
// does (its SHA-256 compared in constant time with the stored one) and sends a body it already
// holds, the listing's own answer. No database, no cache, no hooks: whatever Atrium costs above
// this is its own work. Plain JavaScript so it needs no build step; it prints its port the way
// Atrium's log does.
import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import process from 'node:process';
import Fastify from 'fastify';

const body = fs.readFileSync(process.env.FLOOR_BODY_FILE ?? '', 'utf8');
const header = (process.env.FLOOR_KEY_HEADER ?? '').toLowerCase();
const storedHash = Buffer.from(process.env.FLOOR_KEY_SHA256 ?? '', 'hex');

const app = Fastify({ logger: false });
app.get('/health', async () => ({ ok: true }));
app.get('/*', (request, reply) => {
  const given = request.headers[header];
  const hash = createHash('sha256').update(typeof given === 'string' ? given : '').digest();
  if (hash.length !== storedHash.length || !timingSafeEqual(hash, storedHash)) return reply.code(401).send({ error: 'unauthenticated' });
  return reply.type('application/json; charset=utf-8').send(body);
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`Server listening at ${address}\n`);
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
