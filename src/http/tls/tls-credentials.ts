import { createSecureContext, DEFAULT_CIPHERS, type SecureContextOptions } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { ConfigError } from '../../config/config-error.js';

/** Older protocols have known weaknesses and no client Atrium serves still needs them. */
export const MIN_TLS_VERSION = 'TLSv1.2';

/**
 * TLS 1.2 suites: Mozilla's "intermediate" profile, ECDHE key exchange (forward secrecy) with
 * AEAD ciphers only, so no CBC suite and no static-RSA key exchange is ever agreed. The profile's
 * DHE-RSA suites are left out: they need DH parameters of the server's own, and every client
 * that speaks TLS 1.2 has ECDHE.
 */
const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305', 'ECDHE-RSA-CHACHA20-POLY1305',
];
/**
 * TLS 1.3's suites are all AEAD with forward secrecy: Node's own, unchanged. They must be named,
 * because Node turns TLS 1.3 off for a cipher list that names none of them.
 */
const TLS13_CIPHERS = DEFAULT_CIPHERS.split(':').filter((suite) => suite.startsWith('TLS_'));
const CIPHERS = [...TLS13_CIPHERS, ...TLS12_CIPHERS].join(':');

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** What the HTTPS listener is made with: the PEM texts, checked to belong together, and the protocols and suites it agrees to. */
export type TlsCredentials = Pick<SecureContextOptions, 'minVersion' | 'ciphers'> & { cert: Buffer; key: Buffer };

/**
 * Reads and checks the certificate and key. Every problem is a ConfigError naming the setting, so
 * a bad file stops start-up with one line, and a bad file on SIGHUP is refused with one line.
 */
export function readTlsCredentials(files: TlsFiles): TlsCredentials {
  const cert = readPem('ATRIUM_TLS_CERT_FILE', files.certFile);
  const key = readPem('ATRIUM_TLS_KEY_FILE', files.keyFile);
  try {
    new X509Certificate(cert);
  } catch {
    throw new ConfigError('ATRIUM_TLS_CERT_FILE', `${files.certFile} holds no PEM certificate`);
  }
  const credentials: TlsCredentials = { cert, key, minVersion: MIN_TLS_VERSION, ciphers: CIPHERS };
  try {
    // The same check the listener makes: it refuses a key that is not the certificate's.
    createSecureContext(credentials);
  } catch (error) {
    const reason = (error as Error).message;
    if (/key values mismatch/i.test(reason)) {
      throw new ConfigError('ATRIUM_TLS_KEY_FILE', `${files.keyFile} is not the private key of the certificate in ATRIUM_TLS_CERT_FILE`);
    }
    throw new ConfigError('ATRIUM_TLS_KEY_FILE', `${files.keyFile} holds no usable PEM private key (${reason})`);
  }
  return credentials;
}

function readPem(setting: string, file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new ConfigError(setting, `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
