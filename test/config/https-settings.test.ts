import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load-config.js';

const load = (env: Record<string, string> = {}, argv: string[] = []) => loadConfig(env, argv);

function problem(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('the HTTPS and public URL settings', () => {
  it('are off by default', () => {
    expect(load()).toMatchObject({ tlsCertFile: undefined, tlsKeyFile: undefined, httpRedirectPort: undefined, publicUrl: undefined });
  });

  it('take the certificate and key together, as variables or flags, resolved to absolute paths', () => {
    const config = load({ ATRIUM_TLS_CERT_FILE: 'tls/cert.pem' }, ['--tls-key-file', 'tls/key.pem', '--http-redirect-port', '8081']);
    expect(config).toMatchObject({ tlsCertFile: path.resolve('tls/cert.pem'), tlsKeyFile: path.resolve('tls/key.pem'), httpRedirectPort: 8081 });
    expect(problem(() => load({ ATRIUM_TLS_CERT_FILE: 'cert.pem' }))).toBe('ATRIUM_TLS_KEY_FILE: must be set together with its pair (ATRIUM_TLS_CERT_FILE and ATRIUM_TLS_KEY_FILE)');
    expect(problem(() => load({ ATRIUM_TLS_KEY_FILE: 'key.pem' }))).toBe('ATRIUM_TLS_CERT_FILE: must be set together with its pair (ATRIUM_TLS_CERT_FILE and ATRIUM_TLS_KEY_FILE)');
  });

  it('refuse a redirect port without HTTPS, on the HTTPS port, or that is no port', () => {
    expect(problem(() => load({ ATRIUM_HTTP_REDIRECT_PORT: '80' }))).toBe('ATRIUM_HTTP_REDIRECT_PORT: needs HTTPS (ATRIUM_TLS_CERT_FILE and ATRIUM_TLS_KEY_FILE)');
    const tls = { ATRIUM_TLS_CERT_FILE: 'c.pem', ATRIUM_TLS_KEY_FILE: 'k.pem' };
    expect(problem(() => load({ ...tls, ATRIUM_PORT: '8443', ATRIUM_HTTP_REDIRECT_PORT: '8443' }))).toBe('ATRIUM_HTTP_REDIRECT_PORT: must differ from ATRIUM_PORT (8443)');
    expect(problem(() => load({ ...tls, ATRIUM_HTTP_REDIRECT_PORT: 'http' }))).toBe('ATRIUM_HTTP_REDIRECT_PORT: "http" is not a port number (0 to 65535)');
  });

  it('take a public URL of scheme, host, port and path, without its trailing slash', () => {
    expect(load({ ATRIUM_PUBLIC_URL: 'https://Files.Example.com/' }).publicUrl).toBe('https://files.example.com');
    expect(load({}, ['--public-url', 'http://files.example.com:8080/atrium/']).publicUrl).toBe('http://files.example.com:8080/atrium');
    expect(load({ ATRIUM_PUBLIC_URL: 'https://files.example.com:443' }).publicUrl).toBe('https://files.example.com');
  });

  it('refuse a public URL that is not an http(s) URL, or carries a query, fragment or credentials', () => {
    expect(problem(() => load({ ATRIUM_PUBLIC_URL: 'files.example.com' }))).toBe('ATRIUM_PUBLIC_URL: "files.example.com" is not a URL (expected https://host[:port][/path])');
    expect(problem(() => load({ ATRIUM_PUBLIC_URL: 'ftp://files.example.com' }))).toBe('ATRIUM_PUBLIC_URL: unsupported scheme "ftp:" (expected http:// or https://)');
    for (const bad of ['https://files.example.com/?a=1', 'https://files.example.com/?', 'https://files.example.com/#top', 'https://user:secret@files.example.com']) {
      expect(problem(() => load({ ATRIUM_PUBLIC_URL: bad }))).toBe('ATRIUM_PUBLIC_URL: must be a scheme, host and optional path, without a query, fragment or credentials');
    }
  });
});
