import { api } from './client';

/** An SSH public key for SFTP sign-in (Files.com's PublicKey). */
export interface PublicKey {
  id: number;
  title: string;
  created_at: string;
  /** MD5, colon hex. */
  fingerprint: string;
  /** SHA-256, unpadded base64: `ssh-keygen -l` prints it after `SHA256:`. */
  fingerprint_sha256: string;
  last_login_at: string | null;
  username: string;
  user_id: number;
  /** The key as one OpenSSH line. */
  public_key: string;
}

/** The answer to a generation: the private key is in it once and never again. */
export interface GeneratedPublicKey extends PublicKey {
  generated_private_key: string;
  generated_public_key: string;
}

export type GeneratedAlgorithm = 'ed25519' | 'rsa' | 'ecdsa';

/** The keys of a user (`0` is the caller). */
export async function listPublicKeys(userId: number): Promise<PublicKey[]> {
  return (await api<PublicKey[]>('GET', '/public_keys', { query: { user_id: userId, per_page: 1000 } })).data;
}

export async function addPublicKey(userId: number, title: string, publicKey: string): Promise<PublicKey> {
  return (await api<PublicKey>('POST', '/public_keys', { body: { user_id: userId, title, public_key: publicKey } })).data;
}

/** The server makes the pair; `password` (optional) encrypts the private key it answers with. */
export async function generatePublicKey(userId: number, title: string, algorithm: GeneratedAlgorithm, password: string): Promise<GeneratedPublicKey> {
  return (await api<GeneratedPublicKey>('POST', '/public_keys', {
    body: { user_id: userId, title, generate_keypair: true, generate_algorithm: algorithm, ...(password === '' ? {} : { generate_private_key_password: password }) },
  })).data;
}

export async function deletePublicKey(id: number): Promise<void> {
  await api('DELETE', `/public_keys/${id}`);
}

/** The key type, from the first word of its OpenSSH line, as people call it. */
export function keyTypeLabel(key: PublicKey): string {
  const type = key.public_key.split(' ')[0] ?? '';
  if (type === 'ssh-ed25519') return 'Ed25519';
  if (type === 'ssh-rsa') return 'RSA';
  if (type.startsWith('ecdsa-sha2-nistp')) return `ECDSA P-${type.slice('ecdsa-sha2-nistp'.length)}`;
  return type;
}
