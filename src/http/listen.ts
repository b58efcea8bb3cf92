import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts a plain node:http server (the redirect and metrics listeners) and answers where it
 * listens. A failure to listen rejects; later errors are left to the server's own listeners.
 */
export async function listenOn(server: Server, host: string, port: number): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}
