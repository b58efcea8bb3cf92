// The baseline: a bare Fastify JSON hello-world, run with the same load and settings as Atrium.
// Plain JavaScript so it needs no build step; it prints its port the way Atrium's log does.
import process from 'node:process';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`Server listening at ${address}\n`);
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
