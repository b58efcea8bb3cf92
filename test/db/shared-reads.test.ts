import { describe, expect, it } from 'vitest';
import { sharedReads } from '../../src/db/data-version.js';

/**
 * The external stamp's reads (db/data-version.ts): shared by the requests that ask before a read
 * begins, never by one that asks after it began, and one at a time. The read here is a stand-in
 * for PostgreSQL's snapshot query, which the test answers by hand so that asks can come while it
 * is under way; the real query is exercised by read-cache.test.ts and the multi-node tests.
 */
describe('sharedReads', () => {
  function controlledRead() {
    const begun: { answer: (stamp: string) => void; fail: (error: Error) => void }[] = [];
    const read = () => new Promise<string>((resolve, reject) => {
      begun.push({ answer: resolve, fail: reject });
    });
    return { read, begun };
  }
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('gives the asks of one turn one read, begun after all of them asked', async () => {
    const { read, begun } = controlledRead();
    const ask = sharedReads(read);
    const first = ask();
    const second = ask();
    expect(begun).toHaveLength(0);
    await nextTurn();
    expect(begun).toHaveLength(1);
    begun[0]?.answer('v1');
    expect(await first).toBe('v1');
    expect(await second).toBe('v1');
  });

  it('never answers an ask with a read that began before it, and runs one read at a time', async () => {
    const { read, begun } = controlledRead();
    const ask = sharedReads(read);
    const early = ask();
    await nextTurn();
    expect(begun).toHaveLength(1);
    // Asked while the first read is under way, in later turns: they share the next read.
    const late = ask();
    await nextTurn();
    const later = ask();
    await nextTurn();
    expect(begun).toHaveLength(1);
    begun[0]?.answer('before');
    expect(await early).toBe('before');
    await nextTurn();
    expect(begun).toHaveLength(2);
    begun[1]?.answer('after');
    expect(await late).toBe('after');
    expect(await later).toBe('after');
  });

  it('passes a failed read to its askers only, and reads again for the next', async () => {
    const { read, begun } = controlledRead();
    const ask = sharedReads(read);
    const failing = ask();
    await nextTurn();
    const waiting = ask();
    begun[0]?.fail(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    await nextTurn();
    expect(begun).toHaveLength(2);
    begun[1]?.answer('v2');
    expect(await waiting).toBe('v2');
  });

  it('reads a synchronous source once per turn', async () => {
    let reads = 0;
    const ask = sharedReads(() => String((reads += 1)));
    const answers = await Promise.all([ask(), ask(), ask()]);
    expect(answers).toEqual(['1', '1', '1']);
    expect(await ask()).toBe('2');
    expect(reads).toBe(2);
  });
});
