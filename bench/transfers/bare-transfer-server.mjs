// The floor under Atrium's transfers: plain node:http with nothing on the way, on the same disk.
//   PUT /drop   reads the body and drops it: loopback HTTP alone, no disk, no hash.
//   PUT /file   writes the body to a file in FLOOR_DIR and flushes it (fdatasync) before answering,
//               as Atrium must before a file exists; no hash.
//   GET /file   streams that file back.
// No server that also hashes, checks and records what it stores can be faster than these on the
// same machine; the bench reports them next to dd (docs/benchmarks.md). Plain JavaScript so it
// needs no build step; it prints its port the way Atrium's log does.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import process from 'node:process';
import { pipeline } from 'node:stream/promises';

if (process.env.FLOOR_DIR === undefined) throw new Error('FLOOR_DIR: the directory to write in, on the disk under test');
const file = path.join(process.env.FLOOR_DIR, 'floor.bin');
const MIB = 2 ** 20;

async function answer(request, response) {
  if (request.method === 'GET' && request.url === '/health') return response.end('ok');
  if (request.method === 'PUT' && request.url === '/drop') {
    let bytes = 0;
    for await (const chunk of request) bytes += chunk.length;
    return response.writeHead(201).end(String(bytes));
  }
  if (request.method === 'PUT' && request.url === '/file') {
    const handle = await fs.promises.open(file, 'w');
    try {
      const size = await writeBody(request, handle);
      await handle.datasync();
      return response.writeHead(201).end(String(size));
    } finally {
      await handle.close();
    }
  }
  if (request.method === 'GET' && request.url === '/file') {
    response.writeHead(200, { 'content-length': fs.statSync(file).size, 'content-type': 'application/octet-stream' });
    return pipeline(fs.createReadStream(file, { highWaterMark: MIB }), response);
  }
  response.writeHead(404).end();
}

/**
 * Atrium's way of writing a blob (src/storage/blob-file-writer.ts) with the hashing left out: the
 * body gathered into blocks of a MiB, each written at its place while the next fills (three at
 * most under way), and the disk asked every 64 MiB to write what it holds so far, so that the
 * final flush has only the tail left. A stream to the file instead went at two thirds of this.
 */
async function writeBody(source, handle) {
  const inFlight = new Set();
  let block = Buffer.allocUnsafe(MIB);
  let filled = 0;
  let position = 0;
  let sinceFlush = 0;
  let flushing;
  const send = async () => {
    const bytes = block.subarray(0, filled);
    const writing = writeAll(handle, bytes, position).finally(() => inFlight.delete(writing));
    inFlight.add(writing);
    position += filled;
    sinceFlush += filled;
    block = Buffer.allocUnsafe(MIB);
    filled = 0;
    if (sinceFlush >= 64 * MIB && flushing === undefined) {
      sinceFlush = 0;
      flushing = handle.datasync().finally(() => { flushing = undefined; });
    }
    while (inFlight.size >= 3) await Promise.race(inFlight);
  };
  for await (const chunk of source) {
    for (let offset = 0; offset < chunk.length;) {
      const copied = chunk.copy(block, filled, offset);
      offset += copied;
      filled += copied;
      if (filled === MIB) await send();
    }
  }
  if (filled > 0) await send();
  await Promise.all(inFlight);
  await flushing;
  return position;
}

async function writeAll(handle, bytes, at) {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, at + done);
    done += bytesWritten;
  }
}

const server = http.createServer((request, response) => {
  answer(request, response).catch((error) => {
    if (!response.headersSent) response.writeHead(500);
    response.end(String(error));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`Server listening at http://127.0.0.1:${server.address().port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
