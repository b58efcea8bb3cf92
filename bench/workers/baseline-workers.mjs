// The baseline (bench/baseline-server.mjs) under node:cluster as Atrium runs its workers: with
// ATRIUM_WORKERS above 1, a primary starts that many copies sharing the port and says when all
// serve. What the machine charges for spreading the same requests over processes, with no Atrium.
import cluster from 'node:cluster';
import process from 'node:process';
import Fastify from 'fastify';

const workers = Number(process.env.ATRIUM_WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary) {
  let serving = 0;
  for (let i = 0; i < workers; i += 1) {
    cluster.fork().on('message', () => {
      serving += 1;
      if (serving === workers) process.stdout.write(`{"msg":"${workers} workers serving"}\n`);
    });
  }
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  });
} else {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`Server listening at ${address}\n`);
  process.send?.('serving');
  process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
}
