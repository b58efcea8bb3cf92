import { describe, expect, it } from 'vitest';
import { destinationFixedPrefix, expandDestination, parseDestination, type DestinationContext } from '../../src/automations/index.js';
import { AtriumError } from '../../src/errors/atrium-error.js';

// 2026-03-08 14:05:09 UTC: 10:05:09 in New York (EDT, the first day of daylight time), 15:05:09 in Paris.
const now = new Date('2026-03-08T14:05:09Z');

const base: DestinationContext = {
  sourcePath: 'clients/acme/in/2026/Q1 Report é.final.PDF',
  sourceBase: 'clients/acme/in',
  now,
  timeZone: 'Etc/UTC',
};

describe('destinations', () => {
  it.each<[string, Partial<DestinationContext>, string]>([
    // destination, context beyond `base`, path it gives
    ['archive/', {}, 'archive/2026/Q1 Report é.final.PDF'],
    ['archive/', { flattenDestinationStructure: true }, 'archive/Q1 Report é.final.PDF'],
    ['archive/', { sourceBase: undefined }, 'archive/Q1 Report é.final.PDF'],
    ['archive/', { sourceBase: 'CLIENTS/ACME/IN' }, 'archive/2026/Q1 Report é.final.PDF'],
    ['archive/renamed.pdf', {}, 'archive/renamed.pdf'],
    ['archive/%Ff', {}, 'archive/Q1 Report é.final.PDF'],
    ['archive/%Fb', {}, 'archive/Q1 Report é.final'],
    ['archive/%Fe', {}, 'archive/PDF'],
    ['archive/%Fl', {}, 'archive/q1 report é.final.pdf'],
    ['archive/%Fn', {}, 'archive/Q1Reportéfinal.PDF'],
    ['archive/%Fp', {}, 'archive/q1reporte.final.pdf'],
    ['archive/%Fb.%Fe', {}, 'archive/Q1 Report é.final.PDF'],
    ['by-client/%P2/%p1/', {}, 'by-client/acme/2026/2026/Q1 Report é.final.PDF'],
    ['by-client/%P2/%p1/', { flattenDestinationStructure: true }, 'by-client/acme/2026/Q1 Report é.final.PDF'],
    ['%P1/out/%p2-%p3.%Fe', {}, 'clients/out/in-acme.PDF'],
    ['logs/%Y/%m/%d/%H%M%S-%Ff', {}, 'logs/2026/03/08/140509-Q1 Report é.final.PDF'],
    ['logs/%Y/%m/%d/%H%M%S-%Ff', { timeZone: 'America/New_York' }, 'logs/2026/03/08/100509-Q1 Report é.final.PDF'],
    ['logs/%B %z/', { timeZone: 'Europe/Paris', flattenDestinationStructure: true }, 'logs/March +0100/Q1 Report é.final.PDF'],
    ['logs/%z/', { timeZone: 'America/New_York', flattenDestinationStructure: true }, 'logs/-0400/Q1 Report é.final.PDF'],
    ['logs/%z/', { timeZone: 'Asia/Kathmandu', flattenDestinationStructure: true }, 'logs/+0545/Q1 Report é.final.PDF'],
    ['100%%/%Fe', {}, '100%/PDF'],
    ['done/%tf', { triggeringPath: 'drop/new.csv' }, 'done/new.csv'],
    ['done/%tb-copy.%te', { triggeringPath: 'drop/new.csv' }, 'done/new-copy.csv'],
    ['%td/processed/', { triggeringPath: 'drop/sub/new.csv', flattenDestinationStructure: true }, 'drop/sub/processed/Q1 Report é.final.PDF'],
    ['mirror/%tp', { triggeringPath: 'drop/sub/new.csv' }, 'mirror/drop/sub/new.csv'],
    ['orders/%u-order_id/%Ff', { webhookParams: { order_id: 'A-17' } }, 'orders/A-17/Q1 Report é.final.PDF'],
    ['orders/%u-order_id-%u-batch.%Fe', { webhookParams: { order_id: 'A-17', batch: '3' } }, 'orders/A-17-3.PDF'],
    ['archive/', { destinationReplaceFrom: ' ', destinationReplaceTo: '_' }, 'archive/2026/Q1_Report_é.final.PDF'],
    ['out/%Fb.txt', { destinationReplaceFrom: 'final', destinationReplaceTo: 'v2' }, 'out/Q1 Report é.v2.txt'],
    ['final/', { destinationReplaceFrom: 'final', destinationReplaceTo: 'x', flattenDestinationStructure: true }, 'final/Q1 Report é.x.PDF'],
    ['./done/', {}, 'clients/acme/in/2026/done/Q1 Report é.final.PDF'],
    ['../done/%Ff', {}, 'clients/acme/in/done/Q1 Report é.final.PDF'],
    ['./', { flattenDestinationStructure: true, destinationReplaceFrom: '.PDF', destinationReplaceTo: '.pdf' }, 'clients/acme/in/2026/Q1 Report é.final.pdf'],
    ['/leading//doubled/', { flattenDestinationStructure: true }, 'leading/doubled/Q1 Report é.final.PDF'],
  ])('%s gives its path', (destination, context, expected) => {
    expect(expandDestination(destination, { ...base, ...context })).toBe(expected);
  });

  it.each<[string, Partial<DestinationContext>, string]>([
    ['done/%tf', {}, '%tf names the triggering file, and only an action trigger has one'],
    ['done/%tp', {}, '%tp names the triggering file'],
    ['x/%p5/', {}, '%p5 needs a file 5 folders deep, and clients/acme/in/2026/Q1 Report é.final.PDF is 4'],
    ['x/%P9/', {}, '%P9 needs a file 9 folders deep'],
    ['x/%u-id', {}, '%u-id names a webhook parameter, and only a webhook call has them'],
    ['x/%u-id', { webhookParams: { other: '1' } }, 'the webhook call has no parameter id'],
    ['x/%u-id', { webhookParams: { id: 'a/../b' } }, 'holds a "/"; it may fill a name, not a path'],
    ['x/%u-id', { webhookParams: { id: 'x'.repeat(191) } }, 'id is longer than 190 characters'],
    ['x/%u-a', { webhookParams: { a: 'x'.repeat(190), b: 'x'.repeat(190), c: 'x'.repeat(190) } }, 'longer than 550 characters together'],
    ['../../../../../x/', {}, 'climbs above the root folder'],
    ['x/%Q', {}, 'has "%Q" at character 3, which is no token'],
    ['x/50%', {}, 'has "%" at character 5, which is no token'],
    ['x/%p0', {}, 'has "%p0" at character 3'],
    ['out/%Fe', { destinationReplaceFrom: 'PDF', destinationReplaceTo: '' }, "leaves the file's name empty"],
  ])('%s refused: %s', (destination, context, message) => {
    let thrown: unknown;
    try {
      expandDestination(destination, { ...base, ...context });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AtriumError);
    expect((thrown as AtriumError).type).toBe('bad-request/request-params-invalid');
    expect((thrown as AtriumError).message).toContain(message);
  });

  it('refuses a filled path that is no path, as paths are refused elsewhere', () => {
    expect(() => expandDestination('a/%u-x/b', { ...base, webhookParams: { x: '..' } })).toThrow(/may not contain "\." or "\.\." segments/);
  });

  it('a spring-forward day: the offset after the jump', () => {
    expect(expandDestination('%H%M %z/', { ...base, now: new Date('2026-03-08T07:00:00Z'), timeZone: 'America/New_York', flattenDestinationStructure: true })).toBe(
      '0300 -0400/Q1 Report é.final.PDF',
    );
  });
});

describe('parsing destinations', () => {
  it.each(['a/b', 'a/%%', '%tp', '%p12/x', '%u-a_b9', '%Y%m%d%H%M%S%z%B', '%Ff%Fb%Fe%Fl%Fn%Fp'])('accepts %s', (destination) => {
    expect(parseDestination(destination).ok).toBe(true);
  });
  it.each(['%', '%t', '%tx', '%F', '%Fz', '%u-', '%ua', '%y', '%P0'])('refuses %s', (destination) => {
    expect(parseDestination(destination).ok).toBe(false);
  });
});

describe('the fixed prefix of a destination', () => {
  it.each([
    ['archive/2026/', 'archive/2026', undefined],
    ['archive/2026/name.txt', 'archive/2026', undefined],
    ['archive/%Y/%m/', 'archive', undefined],
    ['archive/x%Y/', 'archive', undefined],
    ['%P1/out/', '', undefined],
    ['/archive/', 'archive', undefined],
    ['100%%/a/', '100%/a', undefined],
    ['./done/', 'done', 0],
    ['../../done/%Y/', 'done', 2],
    ['../a/../../b/', 'b', 2],
    ['bad/%Q/x', 'bad', undefined],
  ] as const)('%s: %s', (destination, folder, relativeLevelsUp) => {
    expect(destinationFixedPrefix(destination)).toEqual({ folder, relativeLevelsUp });
  });
});
