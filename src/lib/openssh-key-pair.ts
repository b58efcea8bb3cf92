import ssh2 from 'ssh2';

export type OpenSshKeyType = 'rsa' | 'ecdsa' | 'ed25519';
export interface OpenSshKeyPair {
  /** OpenSSH's private key format (what `ssh-keygen` writes). */
  private: string;
  /** One line of a `.pub` file. */
  public: string;
}
type GenerateOptions = { bits?: number; comment?: string; passphrase?: string; cipher?: string; rounds?: number };

/**
 * A new key pair from ssh2's generator (Node's crypto, written in OpenSSH's formats), made again
 * when ssh2 writes it wrong: about one Ed25519 key in 256 has a public key starting with a zero
 * byte, which ssh2 drops as if it were a number's, leaving 31 bytes that OpenSSH and Atrium rightly
 * refuse. The keys are random, so the next one is whole.
 */
export async function generateOpenSshKeyPair(type: OpenSshKeyType, options: GenerateOptions): Promise<OpenSshKeyPair> {
  for (;;) {
    const pair = await new Promise<OpenSshKeyPair>((resolve, reject) => {
      // The callback form generates in Node's thread pool, so a 4096-bit RSA key does not stall the process.
      ssh2.utils.generateKeyPair(type as 'rsa', options as { bits: number }, (error, keys) => (error ? reject(error) : resolve(keys)));
    });
    if (isWhole(type, pair)) return pair;
  }
}

/** generateOpenSshKeyPair, synchronously (for tests and tools). */
export function generateOpenSshKeyPairSync(type: OpenSshKeyType, options: GenerateOptions = {}): OpenSshKeyPair {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync(type as 'rsa', options as { bits: number });
    if (isWhole(type, pair)) return pair;
  }
}

const ED25519_BLOB_BYTES = 4 + 'ssh-ed25519'.length + 4 + 32;

function isWhole(type: OpenSshKeyType, pair: OpenSshKeyPair): boolean {
  if (type !== 'ed25519') return true;
  const blob = Buffer.from(pair.public.trim().split(' ')[1] ?? '', 'base64');
  return blob.length === ED25519_BLOB_BYTES && blob.readUInt32BE(4 + 'ssh-ed25519'.length) === 32;
}
