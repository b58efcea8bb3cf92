import { generateOpenSshKeyPair } from '../lib/openssh-key-pair.js';
import { errors } from '../errors/catalogue.js';
import { parseSshPublicKey, type SshPublicKey } from './ssh-public-key.js';

export type GeneratedAlgorithm = 'rsa' | 'ecdsa' | 'ed25519';

export interface KeyPairRequest {
  /** Files.com's `generate_algorithm`: rsa (the default), ecdsa, ed25519; dsa is refused. */
  algorithm: string | undefined;
  /** `generate_length`: RSA bits (2048 to 4096, default 4096) or the ECDSA curve size (256, 384, 521). */
  length: number | undefined;
  /** `generate_private_key_password`: encrypts the private key as `ssh-keygen -N` does. */
  password: string | undefined;
  comment: string;
}

export interface GeneratedKeyPair {
  publicKey: SshPublicKey;
  /** The OpenSSH line of the public key. */
  publicKeyLine: string;
  /** OpenSSH's private key format, encrypted with the password when one was given; never stored. */
  privateKey: string;
}

/** RSA above 4096 bits takes seconds of CPU per request and adds nothing users need. */
const RSA_BITS = { min: 2048, max: 4096, default: 4096 };
const ECDSA_BITS = [256, 384, 521];

/**
 * A new key pair, made with Node's crypto through ssh2 (which writes OpenSSH's private key format,
 * encrypted with aes256-ctr and bcrypt-pbkdf like `ssh-keygen`). Bad parameters are refused as
 * `bad-request/request-params-invalid` naming the parameter.
 */
export async function generateSshKeyPair(request: KeyPairRequest): Promise<GeneratedKeyPair> {
  const { type, bits } = keyShape(request.algorithm, request.length);
  const password = request.password;
  if (password !== undefined && password !== '' && password.length < 5) {
    // The same floor as ssh-keygen, which refuses shorter passphrases.
    throw errors.paramsInvalid({ generate_private_key_password: ['must be at least 5 characters, or left out for an unencrypted key'] });
  }
  const options = {
    ...(bits === undefined ? {} : { bits }),
    comment: request.comment,
    ...(password === undefined || password === '' ? {} : { passphrase: password, cipher: 'aes256-ctr', rounds: 16 }),
  };
  // Generated in Node's thread pool; only the encryption of a password-protected key
  // (bcrypt-pbkdf, about 0.3 s) runs here.
  const pair = await generateOpenSshKeyPair(type, options);
  const publicKeyLine = pair.public.trim();
  return { publicKey: parseSshPublicKey(publicKeyLine), publicKeyLine, privateKey: pair.private };
}

function keyShape(algorithm: string | undefined, length: number | undefined): { type: GeneratedAlgorithm; bits: number | undefined } {
  switch ((algorithm ?? 'rsa').toLowerCase()) {
    case 'rsa': {
      const bits = length ?? RSA_BITS.default;
      if (!Number.isInteger(bits) || bits < RSA_BITS.min || bits > RSA_BITS.max) {
        throw errors.paramsInvalid({ generate_length: [`must be from ${RSA_BITS.min} to ${RSA_BITS.max} bits for an RSA key`] });
      }
      return { type: 'rsa', bits };
    }
    case 'ecdsa': {
      const bits = length ?? 256;
      if (!ECDSA_BITS.includes(bits)) throw errors.paramsInvalid({ generate_length: ['must be 256, 384 or 521 for an ECDSA key'] });
      return { type: 'ecdsa', bits };
    }
    case 'ed25519':
      // Ed25519 has one size; a length sent with it is ignored, as Files.com does for non-RSA keys.
      return { type: 'ed25519', bits: undefined };
    case 'dsa':
      throw errors.paramsInvalid({ generate_algorithm: ['dsa is refused: DSA keys are too weak and OpenSSH no longer accepts them; use ed25519, ecdsa or rsa'] });
    default:
      throw errors.paramsInvalid({ generate_algorithm: ['must be one of rsa, ecdsa, ed25519'] });
  }
}
