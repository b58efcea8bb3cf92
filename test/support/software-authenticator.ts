import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in software, for API tests without a browser: it answers registration
 * and authentication options as a browser with a platform authenticator would (ES256 keys, `none`
 * attestation), so the server's verification runs on real signatures. What a browser would check
 * itself (the origin, excluded credentials) is the test's to say: `origin` is what the answer
 * claims, and the options are taken as given.
 */
export class SoftwareAuthenticator {
  private readonly credentials = new Map<string, Held>();

  constructor(private readonly behaviour: { countsSignatures?: boolean; backedUp?: boolean } = {}) {}

  /** The answer to creation options (`credentialId`: a test's own id for the new credential). */
  register(options: PublicKeyCredentialCreationOptionsJSON, origin: string, overrides: { rpId?: string; challenge?: string; type?: string; credentialId?: string } = {}): RegistrationResponseJSON {
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(origin).hostname;
    for (const excluded of options.excludeCredentials ?? []) {
      if (this.credentials.has(excluded.id)) throw new Error('InvalidStateError: the authenticator already holds an excluded credential');
    }
    const idBytes = overrides.credentialId === undefined ? randomBytes(16) : Buffer.from(overrides.credentialId, 'base64url');
    const id = idBytes.toString('base64url');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]));
    const counter = this.behaviour.countsSignatures === false ? 0 : 1;
    this.credentials.set(id, { privateKey, rpId, counter, userHandle: options.user.id });
    const length = Buffer.alloc(2);
    length.writeUInt16BE(idBytes.length);
    const authData = Buffer.concat([
      sha256(rpId), Buffer.from([FLAGS.userPresent | FLAGS.userVerified | FLAGS.attestedData | this.backupFlags()]), uint32(counter),
      Buffer.alloc(16), length, idBytes, Buffer.from(cose),
    ]);
    const noStatement = new Map<string, string>();
    const attestationObject = isoCBOR.encode(new Map<string, string | Map<string, string> | Uint8Array>([['fmt', 'none'], ['attStmt', noStatement], ['authData', authData]]));
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientData(overrides.type ?? 'webauthn.create', overrides.challenge ?? options.challenge, origin),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** The answer to request options, signed with the first allowed credential this authenticator holds. */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, origin: string, overrides: { challenge?: string; counter?: number } = {}): AuthenticationResponseJSON {
    const allowed = (options.allowCredentials ?? []).map((credential) => credential.id).find((id) => this.credentials.has(id));
    if (allowed === undefined) throw new Error('NotAllowedError: the authenticator holds none of the allowed credentials');
    const held = this.credentials.get(allowed) as Held;
    if (this.behaviour.countsSignatures !== false) held.counter += 1;
    const counter = overrides.counter ?? held.counter;
    const authData = Buffer.concat([sha256(options.rpId ?? held.rpId), Buffer.from([FLAGS.userPresent | FLAGS.userVerified | this.backupFlags()]), uint32(counter)]);
    const clientDataJSON = clientData('webauthn.get', overrides.challenge ?? options.challenge, origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), held.privateKey);
    return {
      id: allowed,
      rawId: allowed,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: held.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private backupFlags(): number {
    return this.behaviour.backedUp === true ? FLAGS.backupEligible | FLAGS.backedUp : 0;
  }
}

interface Held {
  privateKey: KeyObject;
  rpId: string;
  counter: number;
  userHandle: string;
}

const FLAGS = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attestedData: 0x40 } as const;

function sha256(data: string | Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

function clientData(type: string, challenge: string, origin: string): string {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
}
