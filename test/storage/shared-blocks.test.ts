import { describe, expect, it } from 'vitest';
import { giveBack, takeBlock } from '../../src/storage/hashing/shared-blocks.js';

/**
 * The shared blocks of the hashing thread are reused, not released and allocated again, while
 * transfers go on (a released block stays allocated until the hashing thread collects its
 * garbage); only once none has been taken for 2 s is the free list cut to 8.
 */
describe('shared blocks', () => {
  // The free list is trimmed by the module's own timer, which an earlier file in this worker (the
  // module is shared across files) may already have started on the real clock, where a fake one
  // would never fire it: real waits, just past its 2 s.
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('reuses every block given back while transfers go on, and keeps 8 once they stop', async () => {
    // Four uploads at once hold up to 16 blocks.
    const first = Array.from({ length: 16 }, () => takeBlock());
    for (const block of first) giveBack(block);
    const again = Array.from({ length: 16 }, () => takeBlock());
    expect(new Set([...first, ...again]).size).toBe(16);

    for (const block of again) giveBack(block);
    await wait(4500);
    const after = Array.from({ length: 16 }, () => takeBlock());
    expect(after.filter((block) => first.includes(block))).toHaveLength(8);
    for (const block of after) giveBack(block);
  }, 15_000);
});
