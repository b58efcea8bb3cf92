import { randomFillSync } from 'node:crypto';
import type { DigestChoice } from '../../src/storage/hashing/content-digests.js';
import { digestJob } from '../../src/storage/hashing/digest-thread.js';
import { BLOCK_BYTES, giveBack, takeBlock } from '../../src/storage/hashing/shared-blocks.js';

/** What hashing an upload's bytes costs, with sha256 alone and with every digest a file keeps. */
export interface DigestCost {
  bytes: number;
  /** The hashing thread's time per MiB with sha256 alone, in ms. */
  sha256MsPerMib: number;
  /** The same with md5, crc32 and sha1 beside sha256 (what a large file's digests job computes once it is uploaded), in ms. */
  allMsPerMib: number;
  /** allMsPerMib over sha256MsPerMib. */
  ratio: number;
}

/** At most this much is hashed per figure: the ratio is steady long before a GiB, and the bench stays short. */
const MAX_BYTES = 256 * 2 ** 20;

/**
 * The cost of the extra digests (md5, crc32 and sha1 beside sha256) on an upload's bytes, as a
 * ratio against sha256 alone in the same run: measured in the bench process with the code an
 * upload uses (the hashing thread, fed shared blocks of a MiB one after another), not through a
 * server. A large upload computes sha256 alone as it arrives and the rest afterwards
 * (src/files/file-digests.ts), so the difference is what the digests job adds to each MiB
 * uploaded, after the upload. The two choices take turns, round after round, and each keeps its
 * fastest round, so a busy moment of the machine weighs on neither.
 */
export async function digestCost(bytes: number, rounds: number): Promise<DigestCost> {
  const size = Math.min(bytes, MAX_BYTES);
  const block = takeBlock();
  randomFillSync(block);
  try {
    // The first job starts the thread: not part of either figure.
    await hashOnThread('all', block, BLOCK_BYTES);
    const best: Record<'sha256' | 'all', number> = { sha256: Infinity, all: Infinity };
    for (let round = 0; round < Math.max(1, rounds); round += 1) {
      for (const choice of ['sha256', 'all'] as const) best[choice] = Math.min(best[choice], await hashOnThread(choice, block, size));
    }
    const mib = size / 2 ** 20;
    const sha256MsPerMib = best.sha256 / mib;
    const allMsPerMib = best.all / mib;
    return { bytes: size, sha256MsPerMib, allMsPerMib, ratio: allMsPerMib / sha256MsPerMib };
  } finally {
    giveBack(block);
  }
}

/** Milliseconds to hash `bytes` of the block, repeated, on the hashing thread. */
async function hashOnThread(choice: DigestChoice, block: Buffer, bytes: number): Promise<number> {
  const job = digestJob(choice);
  const started = process.hrtime.bigint();
  for (let hashed = 0; hashed < bytes; hashed += BLOCK_BYTES) await job.update(block.subarray(0, Math.min(BLOCK_BYTES, bytes - hashed)));
  await job.digest();
  return Number(process.hrtime.bigint() - started) / 1e6;
}
