import net, { type AddressInfo, type Socket } from 'node:net';
import ssh2 from 'ssh2';
import type { Connection } from 'ssh2';
import type { Caller } from '../access/index.js';
import type { FileOperations } from '../files/index.js';
import type { Db } from '../db/database.js';
import type { PasswordDoor } from '../identity/index.js';
import { requestArrived } from '../db/read-cache.js';
import { activity } from '../lib/activity.js';
import type { Clock } from '../lib/time.js';
import { SFTP_ALGORITHMS } from './algorithms.js';
import { IdleTimeout, type IdleTimers, SFTP_IDLE_TIMEOUT_MS } from './idle-timeout.js';
import { MAX_CHANNELS_PER_CONNECTION } from './limits.js';
import type { HostKeys } from './host-keys.js';
import { registeredPublicKeys, SftpAuthenticator, SIGN_IN_METHODS, type PublicKeyLookup } from './sftp-auth.js';
import { SftpSession } from './sftp-session.js';
import { advertiseExtensions } from './operations/wire.js';
import { batchWritesPerTurn } from './write-batching.js';
import { DEFAULT_SIGN_IN_LIMITS, SignInLimits, type SignInLimitSettings, type Admission } from './sign-in-limits.js';

// ssh2 is CommonJS: its values come from the default export under Node's ESM.
const { Server } = ssh2;

/** What the SFTP front door is built from: the core's parts it uses, and its own settings. */
export interface SftpServerOptions {
  db: Db;
  clock: Clock;
  files: FileOperations;
  /** The core's one sign-in by password, shared with WebDAV. */
  passwords: PasswordDoor;
  hostKeys: HostKeys;
  /** Where public keys are looked up: the registered keys of identity/ unless a test says otherwise. */
  publicKeys?: PublicKeyLookup;
  limits?: Partial<SignInLimitSettings>;
  /** A signed-in connection without a request for this long is closed; SFTP_IDLE_TIMEOUT_MS unless a test says otherwise. */
  idleTimeoutMs?: number;
  /** Where the idle timeout waits: the process's timers unless a test moves its own. */
  idleTimers?: IdleTimers;
  /** Reports a connection's failure (logged by main.ts); the server carries on. */
  onError?: (error: Error) => void;
}

export interface SftpServer {
  /** The port it listens on (useful after listening on port 0). */
  readonly port: number;
  /** Stops accepting and ends every connection. */
  close(): Promise<void>;
}

/**
 * The SFTP front door (docs/sftp.md): an SSH server that serves the `sftp` subsystem and nothing
 * else (shell, exec, port forwarding and agent forwarding are refused), with modern algorithms
 * only. Each signed-in user lands in its home Workspace (the site root for a Default Workspace
 * user) and works through a FileSession with origin `sftp`, so every decision and History record
 * is the shared core's.
 */
export async function startSftpServer(options: SftpServerOptions, listen: { host: string; port: number }): Promise<SftpServer> {
  const limits = new SignInLimits({ ...DEFAULT_SIGN_IN_LIMITS, ...options.limits });
  const authenticator = new SftpAuthenticator(options.db, options.clock, options.passwords, options.publicKeys ?? registeredPublicKeys(options.db, options.clock));
  const ssh = new Server({ hostKeys: options.hostKeys.privateKeys, algorithms: SFTP_ALGORITHMS, ident: 'Atrium' });
  const admitted = new Map<string, { socket: Socket; admission: Admission }>();
  const sockets = new Set<Socket>();
  const report = (error: Error) => options.onError?.(error);

  // Connections are taken here first, so the sign-in limits count a silent client too.
  const tcp = net.createServer((socket) => {
    const admission = limits.admit(socket);
    if (admission === undefined) {
      activity.emit('sftp-session-refused');
      socket.destroy();
      return;
    }
    const key = `${socket.remoteAddress}|${socket.remotePort}`;
    admitted.set(key, { socket, admission });
    sockets.add(socket);
    socket.once('close', () => {
      admitted.delete(key);
      sockets.delete(socket);
    });
    socket.on('error', () => undefined);
    // SFTP answers are small packets a client waits for before sending more: Nagle's delay would
    // hold each one back.
    socket.setNoDelay(true);
    batchWritesPerTurn(socket);
    ssh.injectSocket(socket);
  });

  ssh.on('connection', (client: Connection, info) => {
    const entry = admitted.get(`${info.ip}|${info.port}`);
    if (entry === undefined) {
      client.end();
      return;
    }
    serveConnection(client, entry.socket, entry.admission, info.ip);
  });
  ssh.on('error', report);

  function serveConnection(client: Connection, socket: Socket, admission: Admission, ip: string): void {
    let caller: Caller | undefined;
    let failures = 0;
    let ready = false;
    // A connection that leaves without trying to sign in (a port check) is neither a session nor a refusal.
    socket.once('close', () => {
      if (ready) activity.emit('sftp-session-ended');
      else if (failures > 0) activity.emit('sftp-session-refused');
    });
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      requestArrived(options.db, () => authenticator.attempt(ctx, ip)).then((outcome) => {
        if (outcome.kind === 'signed-in') {
          caller = outcome.caller;
          ctx.accept();
          return;
        }
        if (outcome.kind === 'key-acceptable') {
          ctx.accept();
          return;
        }
        // ssh2 asks with method 'none' first to learn the methods: that is no failed attempt.
        if (ctx.method !== 'none') failures += 1;
        ctx.reject([...SIGN_IN_METHODS]);
        if (failures >= limits.attemptsPerConnection) client.end();
      }, (error: unknown) => {
        report(error as Error);
        ctx.reject([...SIGN_IN_METHODS]);
      }).catch(() => {
        // The client went away while its attempt was being decided (a password costs an argon2
        // verification): there is no one left to answer, and nothing else to do.
      });
    });
    client.on('ready', () => {
      ready = true;
      activity.emit('sftp-session-started');
      admission.signedIn();
      const idle = new IdleTimeout(options.idleTimeoutMs ?? SFTP_IDLE_TIMEOUT_MS, () => client.end(), () => socket.destroy(), options.idleTimers);
      socket.once('close', () => idle.stop());
      let openChannels = 0;
      client.on('session', (accept, reject) => {
        if (openChannels >= MAX_CHANNELS_PER_CONNECTION) return reject();
        openChannels += 1;
        const session = accept();
        session.once('close', () => {
          openChannels -= 1;
        });
        session.on('sftp', (acceptSftp) => {
          const signedIn = caller as Caller;
          const sftp = acceptSftp();
          idle.watch(sftp);
          advertiseExtensions(sftp);
          const files = options.files.session(signedIn, signedIn.homeWorkspaceId, { interface: 'sftp', ip });
          files.catch((error: unknown) => {
            report(error as Error);
            client.end();
          });
          new SftpSession(sftp, files, socket, () => options.clock.now(), (next) => requestArrived(options.db, next), report, signedIn.user?.profile.userRoot ?? '');
        });
        // Only SFTP: every other request on the session channel is refused.
        for (const refused of ['shell', 'exec', 'pty', 'env', 'x11', 'subsystem', 'auth-agent', 'signal', 'window-change'] as const) {
          session.on(refused as 'shell', (_accept: unknown, reject?: () => void) => reject?.());
        }
      });
      // Port forwarding in either direction: refused.
      client.on('tcpip', (_accept, reject) => reject());
      client.on('openssh.streamlocal', (_accept, reject) => reject());
      client.on('request', (_accept, reject) => reject?.());
    });
  }

  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(listen.port, listen.host, () => {
      tcp.off('error', reject);
      resolve();
    });
  });
  tcp.on('error', report);
  return {
    port: (tcp.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      tcp.close(() => resolve());
    }),
  };
}
