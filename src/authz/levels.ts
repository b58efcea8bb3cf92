import type { Capability, Level } from './types.js';

/** Capabilities in the order of contract 5.1; every capability list the engine returns uses it. */
export const CAPABILITY_ORDER: readonly Capability[] = [
  'list',
  'read',
  'write',
  'delete',
  'history',
  'share',
  'manage',
];

export const LEVELS: readonly Level[] = ['admin', 'full', 'readonly', 'writeonly', 'list', 'history', 'bundle'];

/**
 * A set of capabilities as a bit mask (bit i = CAPABILITY_ORDER[i]), so that unions and subset
 * tests on the hot path are single integer operations.
 */
export type CapabilityMask = number;

const BIT: Readonly<Record<Capability, number>> = {
  list: 1 << 0,
  read: 1 << 1,
  write: 1 << 2,
  delete: 1 << 3,
  history: 1 << 4,
  share: 1 << 5,
  manage: 1 << 6,
};

export const NO_CAPABILITIES: CapabilityMask = 0;
export const ALL_CAPABILITIES: CapabilityMask = (1 << CAPABILITY_ORDER.length) - 1;

export function capabilityBit(capability: Capability): CapabilityMask {
  return BIT[capability];
}

/**
 * The capabilities a level gives (contract 5.1). A switch rather than an object lookup, so that a
 * level string read from storage that is not one of ours ('__proto__', a typo, a removed level)
 * gives nothing instead of something inherited: unknown levels fail closed.
 */
export function levelMask(level: Level): CapabilityMask {
  switch (level) {
    case 'admin':
      return ALL_CAPABILITIES;
    case 'full':
      return BIT.list | BIT.read | BIT.write | BIT.delete;
    case 'readonly':
      return BIT.list | BIT.read;
    case 'writeonly':
      return BIT.write;
    case 'list':
      return BIT.list;
    case 'history':
      return BIT.list | BIT.history;
    case 'bundle':
      return BIT.list | BIT.read | BIT.share;
    default:
      return NO_CAPABILITIES;
  }
}

/**
 * The levels a Partner may be granted: Partners are given no administration, no sharing and no
 * History ("Partners cannot be granted admin, sharing, or history permissions").
 */
export const PARTNER_LEVELS: readonly Level[] = ['full', 'readonly', 'writeonly', 'list'];

export function partnerMayHold(level: Level): boolean {
  return PARTNER_LEVELS.includes(level);
}

export function isLevel(value: unknown): value is Level {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
}

export function capabilitiesOfMask(mask: CapabilityMask): Capability[] {
  return CAPABILITY_ORDER.filter((capability) => (mask & BIT[capability]) !== 0);
}

export function levelCapabilities(level: Level): Capability[] {
  return capabilitiesOfMask(levelMask(level));
}

export function isSubsetMask(inner: CapabilityMask, outer: CapabilityMask): boolean {
  return (inner & ~outer) === 0;
}
