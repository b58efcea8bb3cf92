import type { AuthContext } from 'ssh2';
import ssh2 from 'ssh2';
import type { Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import { admitAtDoor, authenticate, completeKeySignIn, findKeySignIn, noteActivity, type PasswordDoor } from '../identity/index.js';
import type { Clock } from '../lib/time.js';

// ssh2 is CommonJS: its values come from the default export under Node's ESM.
const { utils } = ssh2;

/** Generated API keys (identity/secrets.ts): `atr_` and 43 base64url characters. */
const API_KEY_SHAPE = /^atr_[A-Za-z0-9_-]{43}$/;

/** The sign-in methods a client is told it may use. */
export const SIGN_IN_METHODS = ['publickey', 'password', 'keyboard-interactive'] as const;

/**
 * The public keys registered to users (identity's public keys, docs/sftp.md): `find` answers the
 * caller of the enabled user `username` when `keyBlob` (the SSH wire form of a public key) is one
 * of its keys; `signedIn` records a sign-in once its signature is verified.
 */
export interface PublicKeyLookup {
  find(username: string, keyBlob: Buffer): Promise<{ caller: Caller; signedIn(clientIp: string): Promise<void> } | undefined>;
}

/** The registered public keys of identity/, as SFTP sign-in asks for them. */
export function registeredPublicKeys(db: Db, clock: Clock): PublicKeyLookup {
  return {
    async find(username, keyBlob) {
      const found = await findKeySignIn(db, username, keyBlob);
      if (found === undefined) return undefined;
      return { caller: found.caller, signedIn: (clientIp) => completeKeySignIn(db, clock.now(), { interface: 'sftp', ip: clientIp }, found) };
    },
  };
}

/** What one sign-in attempt came to. */
export type SignInOutcome =
  | { kind: 'signed-in'; caller: Caller }
  /** A public key offered without a signature, registered to the user: the client may sign with it. */
  | { kind: 'key-acceptable' }
  | { kind: 'refused' };

/**
 * Sign-in for SFTP, deciding nothing itself:
 * - a password through the process's one PasswordDoor (the core's, which WebDAV shares): the same
 *   login protection, lockout, disabled-user rule and History records (`login` / `failedlogin`,
 *   interface `sftp`) as POST /sessions, the first time at either door, and for a few minutes
 *   after it recognised without another; keyboard-interactive is the same password asked in a
 *   prompt;
 * - an API key as the password of its own user (the username must be the key's user's); a
 *   password that only looks like a key is tried as a password, so a wrong key counts as a
 *   wrong password;
 * - a public key registered to the user: asked without a signature, the answer is whether it would
 *   do; with one, the signature over the session is verified.
 */
export class SftpAuthenticator {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly passwords: PasswordDoor,
    private readonly publicKeys: PublicKeyLookup,
  ) {}

  async attempt(ctx: AuthContext, clientIp: string): Promise<SignInOutcome> {
    const outcome = await this.recognise(ctx, clientIp);
    if (outcome.kind !== 'signed-in') return outcome;
    // The account's own settings (an end date, allowed addresses, the SFTP flag): access/ decides.
    // A refusal looks like any other to the client.
    try {
      // SSH is always encrypted: ssl_required has nothing to refuse here.
      await admitAtDoor(this.db, outcome.caller, 'sftp', { ip: clientIp, encrypted: true, interface: 'sftp' }, this.clock.now());
    } catch {
      return { kind: 'refused' };
    }
    await noteActivity(this.db, outcome.caller, 'sftp-login', this.clock.now());
    return outcome;
  }

  private async recognise(ctx: AuthContext, clientIp: string): Promise<SignInOutcome> {
    switch (ctx.method) {
      case 'password':
        return this.password(ctx.username, ctx.password, clientIp);
      case 'keyboard-interactive': {
        const answers = await new Promise<string[] | undefined>((resolve) => {
          ctx.prompt([{ prompt: 'Password: ', echo: false }], (responses) => resolve(Array.isArray(responses) ? responses : undefined));
        });
        const password = answers?.[0];
        return password === undefined ? { kind: 'refused' } : this.password(ctx.username, password, clientIp);
      }
      case 'publickey':
        return this.publicKey(ctx.username, ctx.key.algo, ctx.key.data, ctx.signature, ctx.blob, ctx.hashAlgo, clientIp);
      default:
        return { kind: 'refused' };
    }
  }

  private async password(username: string, password: string, clientIp: string): Promise<SignInOutcome> {
    if (username === '' || password === '') return { kind: 'refused' };
    if (API_KEY_SHAPE.test(password)) {
      const caller = await authenticate(this.db, this.clock, { sessionId: undefined, apiKey: password }).catch(() => undefined);
      if (caller?.user != null && caller.user.username.toLowerCase() === username.toLowerCase()) return { kind: 'signed-in', caller };
    }
    try {
      const caller = await this.passwords.signIn(this.clock.now(), { username, password, clientIp, interface: 'sftp' });
      return { kind: 'signed-in', caller };
    } catch {
      // Every refusal (wrong, locked out, too many attempts) looks alike to the client; History has the reason.
      return { kind: 'refused' };
    }
  }

  private async publicKey(username: string, algo: string, keyBlob: Buffer, signature: Buffer | undefined, signed: Buffer | undefined, hashAlgo: string | undefined, clientIp: string): Promise<SignInOutcome> {
    if (algo === 'ssh-dss') return { kind: 'refused' };
    const found = await this.publicKeys.find(username, keyBlob);
    if (found === undefined) return { kind: 'refused' };
    if (signature === undefined || signed === undefined) return { kind: 'key-acceptable' };
    const key = utils.parseKey(keyBlob);
    if (key instanceof Error || Array.isArray(key)) return { kind: 'refused' };
    if (key.verify(signed, signature, hashAlgo) !== true) return { kind: 'refused' };
    await found.signedIn(clientIp);
    return { kind: 'signed-in', caller: found.caller };
  }
}
