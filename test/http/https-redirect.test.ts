import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpsRedirectServer } from '../../src/http/tls/https-redirect.js';
import { ServedHostNames } from '../../src/http/tls/served-host-names.js';
import { makeTestCertificateAuthority, type TestCertificateAuthority } from '../support/tls-certificates.js';

const HTTPS_PORT = 8443;

/** The whole answer to one raw request on a fresh loopback connection, so the test decides every header (or none). */
function rawRequest(port: number, head: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(`${head}\r\n\r\n`));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, location: /\r\nlocation: ([^\r]*)\r\n/i.exec(text)?.[1] });
    });
  });
}

const get = (port: number, host: string, target = '/api/rest/v1/files/a%20b.txt?x=1') => rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: ${host}`);

describe('the HTTP redirect port', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-redirect-'));
  let authority: TestCertificateAuthority;
  const servers: http.Server[] = [];
  beforeAll(() => {
    authority = makeTestCertificateAuthority(work);
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  /** A redirect listener on a loopback port, as front-doors.ts makes it, serving the certificate issued with `altNames`. */
  const listen = async (options: { altNames?: string; listenHost?: string; publicUrl?: string }) => {
    const certificate = authority.issue(`c${servers.length}-${Date.now()}`, { altNames: options.altNames });
    const names = new ServedHostNames(fs.readFileSync(certificate.chainFile), options.listenHost ?? '127.0.0.1');
    const server = createHttpsRedirectServer({ httpsPort: HTTPS_PORT, publicUrl: options.publicUrl, isServedHost: (host) => names.includes(host) });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, names };
  };

  it('sends every client to ATRIUM_PUBLIC_URL when it is set, with the path and query, whatever the Host', async () => {
    const { port } = await listen({ publicUrl: 'https://files.example.com/atrium' });
    for (const host of ['attacker.example', 'localhost', '127.0.0.1']) {
      expect(await get(port, host)).toEqual({ status: 301, location: 'https://files.example.com/atrium/api/rest/v1/files/a%20b.txt?x=1' });
    }
    expect(await rawRequest(port, 'POST /api/rest/v1/folders/new?y=2 HTTP/1.1\r\nHost: attacker.example\r\nContent-Length: 0'))
      .toEqual({ status: 308, location: 'https://files.example.com/atrium/api/rest/v1/folders/new?y=2' });
  });

  it('sends a client to the host it asked for when the certificate names it: a DNS name, a wildcard, an IPv4 or IPv6 address', async () => {
    const { port } = await listen({ altNames: 'DNS:files.example.com,DNS:*.example.net,IP:192.0.2.7,IP:2001:db8::7' });
    expect(await get(port, 'files.example.com:80')).toEqual({ status: 301, location: `https://files.example.com:${HTTPS_PORT}/api/rest/v1/files/a%20b.txt?x=1` });
    expect(await get(port, 'FILES.example.com', '/')).toEqual({ status: 301, location: `https://FILES.example.com:${HTTPS_PORT}/` });
    expect(await get(port, 'eu.example.net', '/')).toEqual({ status: 301, location: `https://eu.example.net:${HTTPS_PORT}/` });
    expect(await get(port, '192.0.2.7', '/')).toEqual({ status: 301, location: `https://192.0.2.7:${HTTPS_PORT}/` });
    expect(await get(port, '[2001:db8::7]:80', '/')).toEqual({ status: 301, location: `https://[2001:db8::7]:${HTTPS_PORT}/` });
  });

  it('sends a client to the listen address even when the certificate does not name it', async () => {
    const { port } = await listen({ altNames: 'DNS:files.example.com', listenHost: '127.0.0.1' });
    expect(await get(port, '127.0.0.1', '/')).toEqual({ status: 301, location: `https://127.0.0.1:${HTTPS_PORT}/` });
    const v6 = await listen({ altNames: 'DNS:files.example.com', listenHost: '::1' });
    expect(await get(v6.port, '[::1]', '/')).toEqual({ status: 301, location: `https://[::1]:${HTTPS_PORT}/` });
  });

  it('answers 400 to a Host the certificate does not name, to none at all, and never counts an all-interfaces address as a name', async () => {
    const { port } = await listen({ altNames: 'DNS:files.example.com,DNS:*.example.net', listenHost: '0.0.0.0' });
    for (const host of ['attacker.example', 'files.example.com.attacker.example', 'a.b.example.net', 'example.net', '0.0.0.0', '127.0.0.1', 'files.example.com@attacker.example']) {
      expect(await get(port, host), host).toEqual({ status: 400, location: undefined });
    }
    expect(await rawRequest(port, 'GET / HTTP/1.0')).toEqual({ status: 400, location: undefined });
  });

  it('follows the certificate when it is replaced', async () => {
    const { port, names } = await listen({ altNames: 'DNS:old.example.com' });
    expect((await get(port, 'old.example.com', '/')).status).toBe(301);
    const renewed = authority.issue(`renewed-${Date.now()}`, { altNames: 'DNS:new.example.com' });
    names.certificateChanged(fs.readFileSync(renewed.chainFile));
    expect((await get(port, 'old.example.com', '/')).status).toBe(400);
    expect(await get(port, 'new.example.com', '/')).toEqual({ status: 301, location: `https://new.example.com:${HTTPS_PORT}/` });
  });
});
