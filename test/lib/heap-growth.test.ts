import { describe, expect, it } from 'vitest';
import { heapGrowthFlag } from '../../src/lib/heap-growth.js';

describe('heapGrowthFlag', () => {
  it('bounds the old generation to twice what survived when node was given no factor', () => {
    expect(heapGrowthFlag([], undefined)).toBe('--heap-growing-percent=100');
    expect(heapGrowthFlag(['--enable-source-maps'], '--max-old-space-size=512')).toBe('--heap-growing-percent=100');
  });

  it("keeps the operator's factor, given on the command line or in NODE_OPTIONS, in either spelling", () => {
    expect(heapGrowthFlag(['--heap-growing-percent=50'], undefined)).toBeUndefined();
    expect(heapGrowthFlag([], '--enable-source-maps --heap_growing_percent=300')).toBeUndefined();
  });
});
