import { randomBytes } from 'node:crypto';

const STORAGE_KEY = /^[0-9a-f]{32}$/;

/** A fresh blob key: 128 random bits, so keys never collide and say nothing about the file. */
export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Backends refuse any other key shape: a key is never built from user input, and checking it
 * again where it becomes a file name keeps a bug elsewhere from ever reaching outside the store.
 */
export function assertStorageKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new TypeError('storage: malformed blob key');
}
