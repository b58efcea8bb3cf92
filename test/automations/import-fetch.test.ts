import fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { addressRefusal } from '../../src/automations/address-policy.js';
import { guardedAgents } from '../../src/automations/guarded-agents.js';
import { ImportFailure } from '../../src/automations/import-failure.js';
import { importFileName } from '../../src/automations/import-file-name.js';
import { openImport, type ImportOptions, type ImportRequest } from '../../src/automations/import-fetch.js';
import { ManualTimer } from '../support/manual-timer.js';
import { temporaryFolders } from '../support/temp-dirs.js';
import { makeTestCertificateAuthority } from '../support/tls-certificates.js';

/** One request as a test server received it. */
interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  /** `http://<address>:<port>` */
  origin: string;
  port: number;
  received: Received[];
  /** Resolves when the server has received its n-th request (1-based). */
  receivedCount(n: number): Promise<void>;
}

type Handler = (request: Received, response: http.ServerResponse) => void;

const temporaryFolder = temporaryFolders();
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A real HTTP server on a loopback address, recording what it receives. */
async function serve(handler: Handler, address = '127.0.0.1', make: (listener: http.RequestListener) => http.Server = http.createServer): Promise<TestServer> {
  const received: Received[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const server = make((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      for (const wait of waiting.filter((w) => w.n <= received.length)) wait.resolve();
      handler(entry, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as AddressInfo;
  const scheme = server instanceof https.Server ? 'https' : 'http';
  return {
    origin: `${scheme}://${address.includes(':') ? `[${address}]` : address}:${port}`,
    port,
    received,
    receivedCount: (n) => new Promise((resolve) => {
      if (received.length >= n) resolve();
      else waiting.push({ n, resolve });
    }),
  };
}

const text = (body: string, headers: http.OutgoingHttpHeaders = {}): Handler => (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body), ...headers });
  response.end(body);
};

const redirect = (status: number, location: string): Handler => (_request, response) => {
  response.writeHead(status, { location, 'content-length': 0 });
  response.end();
};

async function readAll(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const get = (url: string, headers: Record<string, string> = {}): ImportRequest => ({ url, method: 'get', headers });
const open = (options: Partial<ImportOptions> = {}): ImportOptions => ({ allowPrivateAddresses: true, signal: new AbortController().signal, maxBytes: 1_000_000, ...options });

/** The failure `promise` ends with, checked to be an ImportFailure. */
async function failureOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ImportFailure);
  return (error as ImportFailure).message;
}

describe('openImport with private addresses allowed', () => {
  it('GETs the URL with its headers and streams the body, named after the URL path\'s last segment', async () => {
    const server = await serve(text('hello, world'));
    const opened = await openImport(get(`${server.origin}/exports/q1%20report.csv?token=secret`, { 'X-Api-Key': 'k1', Accept: 'text/csv' }), open());
    expect(opened.fileName).toBe('q1 report.csv');
    expect(opened.contentLength).toBe(12);
    expect(await readAll(opened.body)).toBe('hello, world');
    expect(server.received).toEqual([expect.objectContaining({ method: 'GET', url: '/exports/q1%20report.csv?token=secret', body: '' })]);
    expect(server.received[0]!.headers).toMatchObject({ 'x-api-key': 'k1', accept: 'text/csv' });
  });

  it('POSTs the content with the automation\'s headers', async () => {
    const server = await serve(text('done'));
    const opened = await openImport({ url: `${server.origin}/report`, method: 'post', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t' }, content: '{"month":"2026-11"}' }, open());
    expect(await readAll(opened.body)).toBe('done');
    expect(server.received[0]).toMatchObject({ method: 'POST', body: '{"month":"2026-11"}' });
    expect(server.received[0]!.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer t', 'content-length': '19' });
  });

  it('answers a body of unknown length with contentLength null, and a URL without a name as `import`', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200);
      response.write('part one, ');
      response.end('part two');
    });
    const opened = await openImport(get(`${server.origin}/`), open());
    expect(opened).toMatchObject({ fileName: 'import', contentLength: null });
    expect(await readAll(opened.body)).toBe('part one, part two');
  });

  it('follows redirects, relative and absolute, to the final answer', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/a') redirect(302, '/b')(request, response);
      else if (request.url === '/b') redirect(301, `${serverOrigin}/c/final.txt`)(request, response);
      else if (request.url === '/c/final.txt') redirect(308, 'data.bin')(request, response);
      else text('arrived')(request, response);
    });
    const serverOrigin = server.origin;
    const opened = await openImport(get(`${server.origin}/a`, { 'X-Token': 'same-origin' }), open());
    expect(await readAll(opened.body)).toBe('arrived');
    expect(opened.fileName).toBe('data.bin');
    expect(server.received.map((r) => r.url)).toEqual(['/a', '/b', '/c/final.txt', '/c/data.bin']);
    // The same origin all along: the automation's headers go with every hop.
    expect(server.received.map((r) => r.headers['x-token'])).toEqual(['same-origin', 'same-origin', 'same-origin', 'same-origin']);
  });

  it('follows a POST redirected by 303 (and 301, 302) with a GET without content; 307 keeps the POST', async () => {
    for (const status of [301, 302, 303]) {
      const server = await serve((request, response) => (request.url === '/form' ? redirect(status, '/result')(request, response) : text('ok')(request, response)));
      const opened = await openImport({ url: `${server.origin}/form`, method: 'post', headers: { 'Content-Type': 'text/plain', 'X-Keep': 'yes' }, content: 'payload' }, open());
      expect(await readAll(opened.body)).toBe('ok');
      expect(server.received.map((r) => [r.method, r.url, r.body]), String(status)).toEqual([['POST', '/form', 'payload'], ['GET', '/result', '']]);
      expect(server.received[1]!.headers['content-type']).toBeUndefined();
      expect(server.received[1]!.headers['x-keep']).toBe('yes');
    }
    const server = await serve((request, response) => (request.url === '/form' ? redirect(307, '/again')(request, response) : text('ok')(request, response)));
    await readAll((await openImport({ url: `${server.origin}/form`, method: 'post', headers: {}, content: 'payload' }, open())).body);
    expect(server.received.map((r) => [r.method, r.url, r.body])).toEqual([['POST', '/form', 'payload'], ['POST', '/again', 'payload']]);
  });

  it('sends none of the automation\'s headers to another origin a redirect leads to', async () => {
    const other = await serve(text('elsewhere'));
    const first = await serve(redirect(302, `http://localhost:${other.port}/file.txt`));
    const opened = await openImport(get(`${first.origin}/start`, { Authorization: 'Bearer secret', 'X-Api-Key': 'secret' }), open());
    expect(await readAll(opened.body)).toBe('elsewhere');
    expect(first.received[0]!.headers.authorization).toBe('Bearer secret');
    expect(other.received[0]!.headers.authorization).toBeUndefined();
    expect(other.received[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('stops after 5 redirects', async () => {
    const server = await serve(redirect(302, '/loop'));
    const message = await failureOf(openImport(get(`${server.origin}/loop?key=secret`), open()));
    expect(message).toBe(`${server.origin}/loop: more than 5 redirects`);
    // The first request and five redirects followed; the sixth redirect is not.
    expect(server.received).toHaveLength(6);
  });

  it('names the file after Content-Disposition, its filename* first, never with a folder in it', async () => {
    const cases: [string, string][] = [
      ['attachment; filename="monthly.csv"', 'monthly.csv'],
      ['attachment; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf; filename="resume.pdf"', 'résumé.pdf'],
      ['attachment; filename="../../etc/passwd"', 'passwd'],
      ['attachment; filename="..\\\\..\\\\boot.ini"', 'boot.ini'],
      ['attachment; filename=".."', 'from-url.txt'],
      ['attachment; filename="folder/"', 'from-url.txt'],
      ['not a disposition;;; =', 'from-url.txt'],
    ];
    for (const [header, expected] of cases) {
      const server = await serve(text('x', { 'content-disposition': header }));
      const opened = await openImport(get(`${server.origin}/from-url.txt`), open());
      expect(opened.fileName, header).toBe(expected);
      await readAll(opened.body);
    }
  });

  it('fails a body past maxBytes: before reading when announced, as a stream error when not', async () => {
    const announced = await serve(text('0123456789'));
    expect(await failureOf(openImport(get(`${announced.origin}/big`), open({ maxBytes: 9 }))))
      .toBe(`${announced.origin}/big: the file is 10 bytes, larger than the limit of 9 bytes`);
    const exact = await openImport(get(`${announced.origin}/exact`), open({ maxBytes: 10 }));
    expect(await readAll(exact.body)).toBe('0123456789');

    const endless = await serve((_request, response) => {
      response.writeHead(200);
      // Sends without end, unless the reader goes away.
      const more = () => {
        if (response.destroyed) return;
        if (response.write(Buffer.alloc(16_384, 97))) setImmediate(more);
        else response.once('drain', more);
      };
      more();
    });
    const opened = await openImport(get(`${endless.origin}/stream`), open({ maxBytes: 100_000 }));
    expect(opened.contentLength).toBeNull();
    expect(await failureOf(readAll(opened.body))).toBe('the file is larger than the limit of 100000 bytes');
  });

  it('fails a final answer that is not 2xx, naming the status', async () => {
    // 302 without a Location leads nowhere; 599 has no standard name.
    for (const [status, words] of [[404, '404 Not Found'], [500, '500 Internal Server Error'], [304, '304 Not Modified'], [302, '302 Found'], [599, '599']] as const) {
      const server = await serve((_request, response) => {
        response.writeHead(status);
        response.end('details of the failure');
      });
      const message = await failureOf(openImport(get(`${server.origin}/thing?token=secret`), open()));
      expect(message).toBe(`${server.origin}/thing: the server answered ${words}`);
    }
  });

  it('fails a body cut short by the server with a plain message', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': 100 });
      response.write('only part');
      setImmediate(() => response.socket?.destroy());
    });
    const opened = await openImport(get(`${server.origin}/cut`), open());
    expect(await failureOf(readAll(opened.body))).toBe(`${server.origin}/cut: the connection was closed unexpectedly`);
  });

  it('times out a server that does not answer, and one that stops sending (time is fired by hand)', async () => {
    const silent = await serve(() => { /* never answers */ });
    const timer = new ManualTimer();
    const waiting = openImport(get(`${silent.origin}/slow`), open({ timer, timeoutMs: 5000 }));
    await silent.receivedCount(1);
    expect(timer.pending()).toEqual([5000]);
    timer.fire();
    expect(await failureOf(waiting)).toBe(`${silent.origin}/slow: the server did not answer in time`);

    const stalling = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': 100 });
      response.write('a start');
    });
    const bodyTimer = new ManualTimer();
    const opened = await openImport(get(`${stalling.origin}/stall`), open({ timer: bodyTimer }));
    const reading = failureOf(readAll(opened.body));
    await new Promise((resolve) => opened.body.once('data', resolve));
    bodyTimer.fire();
    expect(await reading).toBe(`${stalling.origin}/stall: the server did not answer in time`);
  });

  it('stops when the signal is aborted: before sending, while waiting, and while reading the body', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/body') {
        response.writeHead(200);
        response.write('some');
      }
    });
    const before = new AbortController();
    before.abort();
    expect(await failureOf(openImport(get(`${server.origin}/never`), open({ signal: before.signal })))).toBe('the import was canceled');
    expect(server.received).toHaveLength(0);

    const waiting = new AbortController();
    const pending = openImport(get(`${server.origin}/wait`), open({ signal: waiting.signal }));
    await server.receivedCount(1);
    waiting.abort();
    expect(await failureOf(pending)).toBe('the import was canceled');

    const reading = new AbortController();
    const opened = await openImport(get(`${server.origin}/body`), open({ signal: reading.signal }));
    const read = failureOf(readAll(opened.body));
    await new Promise((resolve) => opened.body.once('data', resolve));
    reading.abort();
    expect(await read).toBe('the import was canceled');
  });

  it('refuses URLs that are not http or https, and bad headers, without showing a header\'s value', async () => {
    for (const url of ['ftp://127.0.0.1/file', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '']) {
      expect(await failureOf(openImport(get(url), open())), url).toMatch(/^the URL is not (a valid URL|an http or https URL)/);
    }
    const server = await serve(redirect(302, 'file:///etc/passwd'));
    expect(await failureOf(openImport(get(`${server.origin}/go`), open())))
      .toBe(`the redirect from ${server.origin}/go is not an http or https URL (it is file:)`);
    expect(await failureOf(openImport(get(`${server.origin}/`, { 'Bad Name': 'x' }), open()))).toBe('the request header "Bad Name" is not a valid HTTP header');
    const message = await failureOf(openImport(get(`${server.origin}/`, { 'X-Secret': 'hunter2\r\nInjected: yes' }), open()));
    expect(message).toBe('the request header "X-Secret" is not a valid HTTP header');
    expect(message).not.toContain('hunter2');
  });

  it('fails plainly on a server whose TLS certificate is not trusted', async () => {
    const authority = makeTestCertificateAuthority(temporaryFolder('atrium-import-tls-'));
    const certificate = authority.issue('server');
    const server = await serve(text('secure'), '127.0.0.1', (listener) => https.createServer({ cert: fs.readFileSync(certificate.chainFile), key: fs.readFileSync(certificate.keyFile) }, listener));
    expect(await failureOf(openImport(get(`${server.origin}/file`), open()))).toBe(`${server.origin}/file: the server's TLS certificate is not trusted`);
  });
});

describe('openImport with private addresses refused (the default)', () => {
  const guarded = (options: Partial<ImportOptions> = {}) => open({ allowPrivateAddresses: false, ...options });
  const SETTING = 'which automations may not reach while the site setting automation_import_private_addresses is off';

  it('refuses 127.0.0.1 before connecting', async () => {
    const server = await serve(text('internal'));
    expect(await failureOf(openImport(get(`${server.origin}/admin`), guarded()))).toBe(`127.0.0.1 is a loopback address, ${SETTING}`);
    expect(server.received).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback (localhost), checking the addresses DNS answers', async () => {
    const server = await serve(text('internal'));
    expect(await failureOf(openImport(get(`http://localhost:${server.port}/admin`), guarded())))
      .toMatch(new RegExp(`^localhost resolves to (127\\.0\\.0\\.1|::1), a loopback address, ${SETTING}$`));
    expect(server.received).toHaveLength(0);
  });

  it('refuses internal addresses written in the URL, IPv6 and IPv4-mapped included, over HTTP and HTTPS', async () => {
    for (const [url, address, kind] of [
      ['http://[::1]:9/', '::1', 'a loopback address'],
      ['http://[::ffff:127.0.0.1]:9/', '::ffff:7f00:1', 'a loopback address'],
      ['https://127.0.0.1:9/', '127.0.0.1', 'a loopback address'],
      ['http://0x7f.1:9/', '127.0.0.1', 'a loopback address'],
      ['http://0.0.0.0:9/', '0.0.0.0', 'an unspecified address'],
      ['http://[fe80::1]:9/', 'fe80::1', 'a link-local address'],
    ]) {
      expect(await failureOf(openImport(get(url!), guarded())), url).toBe(`${address} is ${kind}, ${SETTING}`);
    }
  });

  it('refuses a redirect from an allowed host to a loopback one, which receives nothing', async () => {
    const internal = await serve(text('internal secrets'), '127.0.0.2');
    const allowed = await serve((request, response) => (request.url === '/public.txt' ? text('public')(request, response) : redirect(302, `${internal.origin}/secrets`)(request, response)));
    // 127.0.0.1 stands for a public host here: the only one tests may reach.
    const asPublic = guarded({ alsoAllowedAddresses: ['127.0.0.1'] });
    expect(await readAll((await openImport(get(`${allowed.origin}/public.txt`), asPublic)).body)).toBe('public');
    expect(await failureOf(openImport(get(`${allowed.origin}/go`), asPublic))).toBe(`127.0.0.2 is a loopback address, ${SETTING}`);
    expect(allowed.received.map((r) => r.url)).toEqual(['/public.txt', '/go']);
    expect(internal.received).toHaveLength(0);
    // Nor does an IPv6 spelling of loopback.
    const toIpv6 = await serve(redirect(307, `http://[::1]:${internal.port}/secrets`));
    expect(await failureOf(openImport(get(`${toIpv6.origin}/go`), asPublic))).toBe(`::1 is a loopback address, ${SETTING}`);
    expect(internal.received).toHaveLength(0);
  });

  it('checks the connected peer itself: an address that passed an earlier check is refused on connect, before the request is sent', async () => {
    const server = await serve(text('internal'));
    // A check that allows the address once and refuses it after, as a name rebound between two
    // looks would: the look before connecting passes, the look at the connected socket does not.
    let looks = 0;
    const agents = guardedAgents(() => (++looks === 1 ? null : 'no longer allowed'));
    try {
      const error = await new Promise<Error>((resolve) => {
        http.get(`http://localhost:${server.port}/`, { agent: agents.http, family: 4 }, () => resolve(new Error('answered'))).on('error', resolve);
      });
      expect(error.message).toBe('127.0.0.1 is no longer allowed');
      expect(looks).toBe(2);
      expect(server.received).toHaveLength(0);
    } finally {
      agents.destroy();
    }
  });
});

describe('the address policy', () => {
  it.each([
    // Public addresses, and the edges of the private ranges around them.
    ['8.8.8.8', null], ['1.1.1.1', null], ['172.15.255.255', null], ['172.32.0.0', null], ['100.63.255.255', null], ['100.128.0.0', null],
    ['169.253.255.255', null], ['169.255.0.0', null], ['11.0.0.0', null], ['9.255.255.255', null], ['223.255.255.255', null],
    ['127.0.0.1', 'a loopback address'], ['127.255.255.254', 'a loopback address'],
    ['10.0.0.0', 'a private address'], ['10.255.255.255', 'a private address'], ['172.16.0.0', 'a private address'], ['172.31.255.255', 'a private address'],
    ['192.168.0.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'], ['169.254.0.0', 'a link-local address'],
    ['100.64.0.0', 'a carrier-grade NAT address'], ['100.127.255.255', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'], ['0.1.2.3', 'an unspecified address'],
    ['255.255.255.255', 'a broadcast address'], ['224.0.0.1', 'a multicast address'], ['239.255.255.255', 'a multicast address'],
    ['240.0.0.1', 'a reserved address'], ['192.0.2.1', 'a reserved address'], ['198.18.0.1', 'a reserved address'], ['192.0.0.8', 'a reserved address'],
    // IPv6.
    ['2606:4700:4700::1111', null], ['2001:4860:4860::8888', null], ['2a00:1450::1', null],
    ['::1', 'a loopback address'], ['::', 'an unspecified address'], ['fe80::1', 'a link-local address'], ['febf::1', 'a link-local address'],
    ['fc00::1', 'a private (unique local) address'], ['fd12:3456::1', 'a private (unique local) address'], ['ff02::1', 'a multicast address'],
    ['2001:db8::1', 'a reserved address'], ['::7f00:1', 'a reserved address'], ['100::1', 'a special-purpose address (discard)'],
    ['fec0::1', 'a special-purpose address (deprecatedSiteLocal)'], ['4000::1', 'a reserved address'],
    // IPv4 inside IPv6: judged as the IPv4 address, or refused where it could lead to one.
    ['::ffff:127.0.0.1', 'a loopback address'], ['::ffff:7f00:1', 'a loopback address'], ['::ffff:10.0.0.1', 'a private address'],
    ['::ffff:169.254.169.254', 'a link-local address'], ['::ffff:8.8.8.8', null],
    ['64:ff9b::7f00:1', 'a special-purpose address (rfc6052)'], ['2002:7f00:1::', 'a special-purpose address (6to4)'], ['2001::1', 'a special-purpose address (teredo)'],
    // Not an address at all.
    ['localhost', 'not an IP address'], ['', 'not an IP address'], ['1.2.3.4.5', 'not an IP address'],
  ])('%s: %s', (address, expected) => {
    expect(addressRefusal(address)).toBe(expected);
  });
});

describe('importFileName', () => {
  const url = (path: string) => new URL(`http://example.test${path}`);
  it.each([
    [undefined, '/a/b/report.csv', 'report.csv'],
    [undefined, '/a/b/', 'import'],
    [undefined, '/', 'import'],
    [undefined, '/dir/%2E%2E', 'import'],
    [undefined, '/dir/a%2Fb%5Cc.txt', 'c.txt'],
    [undefined, '/dir/bad%E0%A4%A', 'bad%E0%A4%A'],
    [undefined, '/dir/nul%00name.txt', 'nulname.txt'],
    ['attachment; filename="x\u0001y.txt"', '/u', 'xy.txt'],
    ['attachment; filename="  "', '/fallback.bin', 'fallback.bin'],
    ['inline', '/fallback.bin', 'fallback.bin'],
  ])('%s with %s: %s', (header, path, expected) => {
    expect(importFileName(header, url(path))).toBe(expected);
  });

  it('cuts a name longer than 255 bytes, keeping its extension', () => {
    const name = importFileName(`attachment; filename="${'é'.repeat(300)}.csv"`, url('/x'));
    expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(255);
    expect(name).toBe(`${'é'.repeat(125)}.csv`);
  });
});
