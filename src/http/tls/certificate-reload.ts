import type { Server as TlsServer } from 'node:tls';
import { readTlsCredentials, type TlsCredentials, type TlsFiles } from './tls-credentials.js';

/**
 * SIGHUP re-reads the certificate and key, as a renewal tool expects. Only new connections get
 * the new context, so open ones carry on; files that fail the start-up checks keep the old one.
 * `onReloaded` hears of each new certificate (the redirect port checks host names against it).
 */
export function reloadCertificateOnHangup(
  server: TlsServer,
  files: TlsFiles,
  log: { info(message: string): void; error(message: string): void },
  onReloaded: (credentials: TlsCredentials) => void = () => undefined,
): () => void {
  const onHangup = () => {
    try {
      const credentials = readTlsCredentials(files);
      server.setSecureContext(credentials);
      onReloaded(credentials);
      log.info('SIGHUP received, TLS certificate and key reloaded');
    } catch (error) {
      log.error(`SIGHUP received, TLS certificate not reloaded, keeping the current one: ${(error as Error).message}`);
    }
  };
  process.on('SIGHUP', onHangup);
  return () => process.off('SIGHUP', onHangup);
}
