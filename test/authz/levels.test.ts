import { describe, expect, it } from 'vitest';
import { CAPABILITY_ORDER, LEVELS, isLevel, levelCapabilities } from '../../src/authz/index.js';
import type { Capability, Level } from '../../src/authz/index.js';

describe('level capabilities (contract 5.1)', () => {
  const table: { level: Level; capabilities: Capability[] }[] = [
    { level: 'admin', capabilities: ['list', 'read', 'write', 'delete', 'history', 'share', 'manage'] },
    { level: 'full', capabilities: ['list', 'read', 'write', 'delete'] },
    { level: 'readonly', capabilities: ['list', 'read'] },
    { level: 'writeonly', capabilities: ['write'] },
    { level: 'list', capabilities: ['list'] },
    { level: 'history', capabilities: ['list', 'history'] },
    { level: 'bundle', capabilities: ['list', 'read', 'share'] },
  ];

  it.each(table)('$level gives $capabilities', ({ level, capabilities }) => {
    expect(levelCapabilities(level)).toEqual(capabilities);
  });

  it('covers every level', () => {
    expect(table.map((row) => row.level).sort()).toEqual([...LEVELS].sort());
  });

  it('orders capabilities as the contract lists them', () => {
    expect(CAPABILITY_ORDER).toEqual(['list', 'read', 'write', 'delete', 'history', 'share', 'manage']);
  });

  it.each(['__proto__', 'constructor', 'Admin', 'owner', '', 42])('an unknown level %j gives nothing', (value) => {
    expect(isLevel(value)).toBe(false);
    expect(levelCapabilities(value as Level)).toEqual([]);
  });
});
