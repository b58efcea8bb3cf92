import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { ConfigError } from '../../config/config-error.js';

/** Older protocols have known weaknesses and no client Atrium serves still needs them. */
export const MIN_TLS_VERSION = 'TLSv1.2';

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** What the HTTPS listener is made with: the PEM texts, checked to belong together. */
export type TlsCredentials = Pick<SecureContextOptions, 'cert' | 'key' | 'minVersion'>;

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
  const credentials: TlsCredentials = { cert, key, minVersion: MIN_TLS_VERSION };
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
