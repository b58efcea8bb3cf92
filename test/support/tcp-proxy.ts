import net from 'node:net';

/**
 * A loopback TCP proxy in front of PostgreSQL, so a test can take the database away from a running
 * server and give it back: `refuse()` closes every connection and refuses new ones (a stopped
 * server), `blackhole()` accepts connections and forwards nothing (an unreachable one), `restore()`
 * forwards again.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private mode: 'forward' | 'blackhole' = 'forward';
  port = 0;

  constructor(private readonly targetHost: string, private readonly targetPort: number) {}

  async start(port = 0): Promise<void> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(port, '127.0.0.1', () => resolve());
    });
    const address = this.server.address();
    this.port = typeof address === 'object' && address !== null ? address.port : 0;
  }

  async refuse(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
    this.server = undefined;
  }

  blackhole(): void {
    this.mode = 'blackhole';
    this.dropAll();
  }

  async restore(): Promise<void> {
    this.mode = 'forward';
    if (this.server === undefined) await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.refuse();
  }

  private accept(client: net.Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    if (this.mode === 'blackhole') return;
    const upstream = net.connect(this.targetPort, this.targetHost);
    this.sockets.add(upstream);
    upstream.on('close', () => { this.sockets.delete(upstream); client.destroy(); });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  }

  private dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}
