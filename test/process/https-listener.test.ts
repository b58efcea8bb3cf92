import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpsRequest, startHttpsServer } from '../support/https-server-process.js';
import { runServer, startServer, type ServerProcess } from '../support/server-process.js';
import { makeTestCertificateAuthority, type TestCertificate, type TestCertificateAuthority } from '../support/tls-certificates.js';

const KEY = 'https-listener-bootstrap-key-0123456789abcdef';

/** Waits until the server's output holds `pattern` (it logs each reload once), and returns the match. */
async function logged(server: ServerProcess, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const match = pattern.exec(server.output());
    if (match !== null) return match;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The TLS handshake alone, with the client limited to `version`: the negotiated protocol, or the error code. */
function handshake(port: number, ca: Buffer, version: tls.SecureVersion): Promise<string> {
  return new Promise((resolve) => {
    // SECLEVEL=0 lets this client offer TLS 1.1 at all, so the refusal is the server's.
    const socket = tls.connect({ host: '127.0.0.1', port, ca, minVersion: version, maxVersion: version, ciphers: 'DEFAULT@SECLEVEL=0' }, () => {
      resolve(socket.getProtocol() ?? 'none');
      socket.end();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/**
 * A TLS 1.2 handshake by OpenSSL's own client offering only `cipher`: the suite agreed, or the
 * alert that ended it. `-tls1_2` matters: without it the client would agree TLS 1.3 instead, whose
 * suites are not the ones under test, and a refusal could never show.
 */
function opensslTls12(port: number, caFile: string, cipher: string): { agreed: string | undefined; output: string } {
  const run = spawnSync('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-tls1_2', '-cipher', cipher, '-CAfile', caFile], { input: '', encoding: 'utf8', timeout: 15_000 });
  const output = `${run.stdout}${run.stderr}`;
  const agreed = run.status === 0 ? /New, TLSv1\.2, Cipher is (\S+)/.exec(output)?.[1] : undefined;
  return { agreed, output };
}

/** What a TLS 1.2 listener agrees to for each suite offered alone: the suite itself, or "refused" when the server ended the handshake. */
function tls12Answers(port: number, caFile: string, ciphers: string[]): Record<string, string> {
  return Object.fromEntries(ciphers.map((cipher) => {
    const { agreed, output } = opensslTls12(port, caFile, cipher);
    // The server's handshake_failure alert: the client offered the suite, the server would not take it.
    if (agreed === undefined && /alert handshake failure/.test(output)) return [cipher, 'refused'];
    return [cipher, agreed ?? output];
  }));
}

function plainRequest(url: string, method: string, headers: Record<string, string> = {}): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('Atrium serving HTTPS itself (ATRIUM_TLS_CERT_FILE and ATRIUM_TLS_KEY_FILE)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-https-'));
  let authority: TestCertificateAuthority;
  let first: TestCertificate;
  let second: TestCertificate;
  let server: ServerProcess;
  // The files the server is configured with; the reload test writes other certificates into them.
  const certFile = path.join(work, 'served-cert.pem');
  const keyFile = path.join(work, 'served-key.pem');
  const serve = (certificate: TestCertificate) => {
    fs.copyFileSync(certificate.chainFile, certFile);
    fs.copyFileSync(certificate.keyFile, keyFile);
  };
  const serialOf = (certificate: TestCertificate) => new X509Certificate(fs.readFileSync(certificate.chainFile)).serialNumber;

  beforeAll(async () => {
    authority = makeTestCertificateAuthority(path.join(work, 'pki'));
    first = authority.issue('first');
    // The renewed certificate names other hosts: the redirect port follows it.
    second = authority.issue('second', { altNames: 'IP:127.0.0.1,DNS:renewed.example.test' });
    serve(first);
    server = await startHttpsServer({
      ATRIUM_DATA_DIR: path.join(work, 'data'),
      ATRIUM_BOOTSTRAP_API_KEY: KEY,
      ATRIUM_TLS_CERT_FILE: certFile,
      ATRIUM_TLS_KEY_FILE: keyFile,
      ATRIUM_HTTP_REDIRECT_PORT: '0',
    }, authority.ca);
  });

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('answers the API over HTTPS with the certificate chain and Strict-Transport-Security', async () => {
    const response = await httpsRequest(`${server.baseUrl}/api/rest/v1/workspaces`, { ca: authority.ca, headers: { 'X-ServiceAPI-Key': KEY } });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toContainEqual(expect.objectContaining({ id: 0 }));
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(response.certificate.serialNumber).toBe(serialOf(first));
    // Errors carry it too: every response over HTTPS does.
    const refused = await httpsRequest(`${server.baseUrl}/api/rest/v1/workspaces`, { ca: authority.ca });
    expect(refused.status).toBe(401);
    expect(refused.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('speaks TLS 1.2 and 1.3, and refuses TLS 1.1', async () => {
    expect(await handshake(server.port, authority.ca, 'TLSv1.3')).toBe('TLSv1.3');
    expect(await handshake(server.port, authority.ca, 'TLSv1.2')).toBe('TLSv1.2');
    expect(await handshake(server.port, authority.ca, 'TLSv1.1')).toBe('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');
  });

  it('agrees only forward-secret AEAD suites in TLS 1.2 (an ECDSA certificate)', () => {
    expect(tls12Answers(server.port, authority.caFile, [
      'AES128-SHA', 'AES128-GCM-SHA256', 'ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA384',
      'ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-ECDSA-CHACHA20-POLY1305',
    ])).toEqual({
      'AES128-SHA': 'refused',
      'AES128-GCM-SHA256': 'refused',
      'ECDHE-ECDSA-AES128-SHA': 'refused',
      'ECDHE-ECDSA-AES256-SHA384': 'refused',
      'ECDHE-ECDSA-AES128-GCM-SHA256': 'ECDHE-ECDSA-AES128-GCM-SHA256',
      'ECDHE-ECDSA-AES256-GCM-SHA384': 'ECDHE-ECDSA-AES256-GCM-SHA384',
      'ECDHE-ECDSA-CHACHA20-POLY1305': 'ECDHE-ECDSA-CHACHA20-POLY1305',
    });
  });

  it('redirects plain HTTP on ATRIUM_HTTP_REDIRECT_PORT to the HTTPS URL', async () => {
    const port = Number((await logged(server, /HTTP redirect to HTTPS listening at http:\/\/127\.0\.0\.1:(\d+)/))[1]);
    expect(await plainRequest(`http://127.0.0.1:${port}/api/rest/v1/files/a%20b.txt?x=1`, 'GET')).toEqual({ status: 301, location: `https://127.0.0.1:${server.port}/api/rest/v1/files/a%20b.txt?x=1` });
    expect(await plainRequest(`http://localhost:${port}/api/rest/v1/folders/new`, 'POST')).toEqual({ status: 308, location: `https://localhost:${server.port}/api/rest/v1/folders/new` });
    // A Host the certificate does not name is never sent back: the port is no open redirect.
    expect(await plainRequest(`http://127.0.0.1:${port}/`, 'GET', { host: 'attacker.example' })).toEqual({ status: 400, location: undefined });
  });

  it('re-reads the certificate on SIGHUP for new connections while an open one keeps working, and keeps it when the new files are bad', async () => {
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: authority.ca });
    try {
      const before = await httpsRequest(`${server.baseUrl}/health`, { ca: authority.ca, agent });
      expect(before.certificate.serialNumber).toBe(serialOf(first));

      serve(second);
      server.child.kill('SIGHUP');
      await logged(server, /TLS certificate and key reloaded/);
      const fresh = await httpsRequest(`${server.baseUrl}/health`, { ca: authority.ca });
      expect(fresh.status).toBe(200);
      expect(fresh.certificate.serialNumber).toBe(serialOf(second));
      const redirectPort = Number((await logged(server, /HTTP redirect to HTTPS listening at http:\/\/127\.0\.0\.1:(\d+)/))[1]);
      const redirect = (host: string) => plainRequest(`http://127.0.0.1:${redirectPort}/`, 'GET', { host });
      expect(await redirect('renewed.example.test')).toEqual({ status: 301, location: `https://renewed.example.test:${server.port}/` });
      expect(await redirect('localhost')).toEqual({ status: 400, location: undefined });
      // The connection opened before the reload is still the one the agent uses, and still answers.
      const kept = await httpsRequest(`${server.baseUrl}/health`, { ca: authority.ca, agent });
      expect(kept.status).toBe(200);
      expect(kept.certificate.serialNumber).toBe(serialOf(first));

      // A key that is not the certificate's: refused with one line, the current certificate stays.
      fs.copyFileSync(first.chainFile, certFile);
      server.child.kill('SIGHUP');
      const refusal = await logged(server, /TLS certificate not reloaded, keeping the current one: ([^\n"]*)/);
      expect(refusal[1]).toContain('ATRIUM_TLS_KEY_FILE');
      const after = await httpsRequest(`${server.baseUrl}/health`, { ca: authority.ca });
      expect(after.status).toBe(200);
      expect(after.certificate.serialNumber).toBe(serialOf(second));
      expect(server.child.exitCode).toBeNull();
    } finally {
      agent.destroy();
    }
  });

  it('stops start-up with one line naming the setting when the certificate and key do not match', async () => {
    const run = runServer({
      ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: '0', ATRIUM_DATA_DIR: path.join(work, 'mismatch'),
      ATRIUM_TLS_CERT_FILE: first.chainFile, ATRIUM_TLS_KEY_FILE: second.keyFile,
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toBe(`atrium: configuration error: ATRIUM_TLS_KEY_FILE: ${second.keyFile} is not the private key of the certificate in ATRIUM_TLS_CERT_FILE\n`);
    const notPem = path.join(work, 'not-a-certificate.pem');
    fs.writeFileSync(notPem, 'not a certificate\n');
    const bad = runServer({ ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: '0', ATRIUM_DATA_DIR: path.join(work, 'bad'), ATRIUM_TLS_CERT_FILE: notPem, ATRIUM_TLS_KEY_FILE: first.keyFile });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toBe(`atrium: configuration error: ATRIUM_TLS_CERT_FILE: ${notPem} holds no PEM certificate\n`);
  });
});

describe('TLS 1.2 suites with an RSA certificate', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-https-rsa-'));
  let authority: TestCertificateAuthority;
  let server: ServerProcess;
  beforeAll(async () => {
    authority = makeTestCertificateAuthority(path.join(work, 'pki'));
    const rsa = authority.issue('rsa', { rsa: true });
    server = await startHttpsServer({ ATRIUM_DATA_DIR: path.join(work, 'data'), ATRIUM_TLS_CERT_FILE: rsa.chainFile, ATRIUM_TLS_KEY_FILE: rsa.keyFile }, authority.ca);
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('agrees ECDHE-RSA with AES-GCM or ChaCha20-Poly1305 only: no CBC, no RSA key exchange, no DHE', async () => {
    expect(tls12Answers(server.port, authority.caFile, [
      'AES128-SHA', 'AES256-GCM-SHA384', 'ECDHE-RSA-AES128-SHA', 'ECDHE-RSA-AES128-SHA256', 'DHE-RSA-AES128-GCM-SHA256',
      'ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305',
    ])).toEqual({
      'AES128-SHA': 'refused',
      'AES256-GCM-SHA384': 'refused',
      'ECDHE-RSA-AES128-SHA': 'refused',
      'ECDHE-RSA-AES128-SHA256': 'refused',
      'DHE-RSA-AES128-GCM-SHA256': 'refused',
      'ECDHE-RSA-AES128-GCM-SHA256': 'ECDHE-RSA-AES128-GCM-SHA256',
      'ECDHE-RSA-AES256-GCM-SHA384': 'ECDHE-RSA-AES256-GCM-SHA384',
      'ECDHE-RSA-CHACHA20-POLY1305': 'ECDHE-RSA-CHACHA20-POLY1305',
    });
    // TLS 1.3 is as before.
    expect(await handshake(server.port, authority.ca, 'TLSv1.3')).toBe('TLSv1.3');
  });
});

describe('transfer URLs with ATRIUM_PUBLIC_URL', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-public-url-'));
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ ATRIUM_DATA_DIR: path.join(work, 'data'), ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_PUBLIC_URL: 'https://files.example.test:8443/atrium/' });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('hands out upload and download links under the public URL, whatever the request said', async () => {
    const headers = { 'X-ServiceAPI-Key': KEY, 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'elsewhere.test' };
    expect((await fetch(`${server.baseUrl}/api/rest/v1/files/a.txt`, { method: 'PUT', headers, body: 'public' })).status).toBe(201);
    const file = await fetch(`${server.baseUrl}/api/rest/v1/files/a.txt`, { headers }).then((r) => r.json()) as any;
    expect(file.download_uri).toMatch(/^https:\/\/files\.example\.test:8443\/atrium\/api\/rest\/v1\/downloads\/[^/]+$/);
    const begun = await fetch(`${server.baseUrl}/api/rest/v1/files/b.txt`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ action: 'put' }) });
    expect(begun.status).toBe(200);
    expect(((await begun.json()) as any).upload_uri).toMatch(/^https:\/\/files\.example\.test:8443\/atrium\/api\/rest\/v1\/uploads\/[^/]+$/);
    // The token is what matters: the same link under this server's own address works.
    const local = (file.download_uri as string).replace('https://files.example.test:8443/atrium', server.baseUrl);
    expect(await fetch(local).then((r) => r.text())).toBe('public');
  });

  it('refuses a public URL with a query at start-up, naming the setting', async () => {
    const run = runServer({ ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: '0', ATRIUM_DATA_DIR: path.join(work, 'bad'), ATRIUM_PUBLIC_URL: 'https://files.example.test/?a=1' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toBe('atrium: configuration error: ATRIUM_PUBLIC_URL: must be a scheme, host and optional path, without a query, fragment or credentials\n');
  });
});
