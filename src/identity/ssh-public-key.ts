import { createHash, createPublicKey } from 'node:crypto';
import ssh2 from 'ssh2';
import { errors } from '../errors/catalogue.js';

/** A public key as SSH presents it, with the fingerprints users compare with `ssh-keygen -l`. */
export interface SshPublicKey {
  /** ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa. */
  algorithm: string;
  /** The SSH wire encoding: what a client sends at sign-in. */
  blob: Buffer;
  comment: string;
  /** MD5 of the blob in colon hex, as Files.com's `fingerprint` (and `ssh-keygen -E md5`). */
  fingerprintMd5: string;
  /** SHA-256 of the blob in unpadded base64, as Files.com's `fingerprint_sha256` (`ssh-keygen -l` prints it after `SHA256:`). */
  fingerprintSha256: string;
}

/** Large enough for a 16384-bit RSA key in any of the formats parsed, small enough to refuse junk at once. */
export const MAX_PUBLIC_KEY_LENGTH = 16_384;
export const MIN_RSA_BITS = 2048;

const ACCEPTED = new Set(['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'ssh-rsa']);
const EXPECTED = 'an SSH public key such as the one line of a .pub file: "ssh-ed25519 AAAA... comment"';

/** A refusal of the `public_key` field, in the form every resource reports a bad field. */
function refuse(problem: string): Error {
  return errors.modelSaveError({ public_key: [problem] });
}

/**
 * Reads a pasted public key: OpenSSH's one line (what `ssh-keygen` writes to `.pub`) or RFC 4716
 * (`---- BEGIN SSH2 PUBLIC KEY ----`, PuTTYgen's export). Refuses private
 * keys pasted by mistake, several keys at once, DSA, RSA under 2048 bits and anything that is not
 * a key, each with a sentence that says what to paste instead.
 */
export function parseSshPublicKey(text: string): SshPublicKey {
  const trimmed = text.trim();
  if (trimmed === '') throw refuse(`is empty: paste ${EXPECTED}`);
  if (trimmed.length > MAX_PUBLIC_KEY_LENGTH) throw refuse(`is too long to be an SSH public key: paste ${EXPECTED}`);
  if (/PRIVATE KEY|PuTTY-User-Key-File/.test(trimmed)) throw refuse(privateKeyProblem());
  const lines = trimmed.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length > 1 && !trimmed.startsWith('---- BEGIN SSH2 PUBLIC KEY')) throw refuse('holds more than one line: paste one key at a time, on one line');

  const parsed = ssh2.utils.parseKey(fromRfc4716(trimmed) ?? trimmed);
  if (parsed instanceof Error || Array.isArray(parsed)) throw refuse(`is not a valid SSH public key: paste ${EXPECTED}`);
  if (parsed.isPrivateKey()) throw refuse(privateKeyProblem());
  const algorithm = parsed.type;
  if (algorithm === 'ssh-dss') throw refuse('is a DSA key, which is too weak and no longer accepted by OpenSSH: use an Ed25519 key (ssh-keygen -t ed25519)');
  if (!ACCEPTED.has(algorithm)) throw refuse(`is a ${algorithm} key, which is not accepted: use ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa of at least ${MIN_RSA_BITS} bits`);

  let bits: number | undefined;
  try {
    bits = createPublicKey(parsed.getPublicPEM()).asymmetricKeyDetails?.modulusLength;
  } catch {
    throw refuse(`is not a valid SSH public key: paste ${EXPECTED}`);
  }
  if (algorithm === 'ssh-rsa' && (bits === undefined || bits < MIN_RSA_BITS)) {
    throw refuse(`is an RSA key of ${bits ?? 'unknown'} bits; at least ${MIN_RSA_BITS} are needed: use an Ed25519 key (ssh-keygen -t ed25519) or RSA of 3072 bits or more`);
  }
  const blob = parsed.getPublicSSH();
  return { algorithm, blob, comment: cleanComment(parsed.comment), ...fingerprintsOf(blob) };
}

const RFC4716 = /^---- BEGIN SSH2 PUBLIC KEY ----\r?\n([\s\S]*?)\r?\n---- END SSH2 PUBLIC KEY ----$/;

/**
 * An RFC 4716 key as OpenSSH's one line (ssh2 reads only RSA and DSA keys in that form): headers
 * (`Comment: "..."`, with `\` continuations) then the base64 of the blob, whose first string names the type.
 */
function fromRfc4716(text: string): string | undefined {
  const body = RFC4716.exec(text)?.[1];
  if (body === undefined) return undefined;
  const lines = body.replace(/\\\r?\n/g, '').split(/\r?\n/);
  let comment = '';
  const data: string[] = [];
  for (const line of lines) {
    const header = /^([\x21-\x39\x3b-\x7e]{1,64}): (.*)$/.exec(line);
    if (header === null) data.push(line.trim());
    else if (header[1]!.toLowerCase() === 'comment') comment = header[2]!.replace(/^"(.*)"$/, '$1');
  }
  const blob = Buffer.from(data.join(''), 'base64');
  const typeLength = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  if (typeLength === 0 || typeLength > 64 || blob.length < 4 + typeLength) return undefined;
  const type = blob.subarray(4, 4 + typeLength).toString('latin1');
  return openSshLine(type, blob, comment.replace(/\s+/g, ' ').trim());
}

function privateKeyProblem(): string {
  return 'is a private key, which must stay secret and never be sent: paste the public key instead (the .pub file next to it, or ssh-keygen -y -f <private key file>)';
}

/** The comment as one line of printable text (it is shown in lists). */
function cleanComment(comment: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (comment ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim().slice(0, 255);
}

export function fingerprintsOf(blob: Buffer): { fingerprintMd5: string; fingerprintSha256: string } {
  const md5 = createHash('md5').update(blob).digest('hex');
  return {
    fingerprintMd5: md5.match(/../g)!.join(':'),
    fingerprintSha256: createHash('sha256').update(blob).digest('base64').replace(/=+$/, ''),
  };
}

/** The key as OpenSSH's one line, the form `authorized_keys` and `.pub` files use. */
export function openSshLine(algorithm: string, blob: Buffer, comment: string): string {
  return `${algorithm} ${blob.toString('base64')}${comment === '' ? '' : ` ${comment}`}`;
}
