import { describe, expect, it } from 'vitest';
import { parseSshPublicKey } from '../../src/identity/ssh-public-key.js';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';

describe('Ed25519 key pairs from ssh2', () => {
  // ssh2 drops the leading zero byte of about one public key in 256; enough keys that one such would
  // almost surely come up (3,000: all but 1 in 100,000 runs) must all be whole.
  it('are always whole: every one of thousands is a valid SSH public key', () => {
    const refused: string[] = [];
    for (let i = 0; i < 3000; i += 1) {
      const line = generateOpenSshKeyPairSync('ed25519', { comment: 'me@laptop' }).public.trim();
      try {
        expect(parseSshPublicKey(line).algorithm).toBe('ssh-ed25519');
      } catch {
        refused.push(line);
      }
    }
    expect(refused).toEqual([]);
  });
});
