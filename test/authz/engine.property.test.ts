// The engine against the plain reference model (reference-model.ts) on random sites.
// AUTHZ_PROPERTY_RUNS sets the number of cases per property (default 10,000, CI's minimum);
// AUTHZ_PROPERTY_SEED replays a failure that fast-check reported.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  childNamesTowardGrants,
  decide,
  decideChildren,
  hasGrantBelow,
  replacedGrantIds,
} from '../../src/authz/index.js';
import type { Capability, ChildEntry, Decision, EntryType, Extent, Grant, Grantee, Level, Subject } from '../../src/authz/index.js';
import {
  referenceChildNamesTowardGrants,
  referenceChildren,
  referenceDecide,
  referenceReplacedIds,
} from './reference-model.js';

function runsFromEnvironment(): number {
  const raw = process.env.AUTHZ_PROPERTY_RUNS;
  if (raw === undefined || raw === '') return 10_000;
  const runs = Number(raw);
  // A typo must not quietly turn the property off.
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`AUTHZ_PROPERTY_RUNS must be a positive integer, got ${raw}`);
  return runs;
}

const numRuns = runsFromEnvironment();
const seedText = process.env.AUTHZ_PROPERTY_SEED;
const parameters: fc.Parameters<unknown> = seedText ? { numRuns, seed: Number(seedText) } : { numRuns };
// About a second per thousand cases on a 2-core machine; the budget grows with the run count.
const TIMEOUT_MS = 60_000 * Math.max(1, numRuns / 10_000);

const LEVELS: Level[] = ['admin', 'full', 'readonly', 'writeonly', 'list', 'history', 'bundle'];
const USER_IDS = [1, 2, 3];
const GROUP_IDS = [1, 2, 3, 4];
const PARTNER_IDS = [1, 2];

// A small alphabet so that grants and targets collide: Workspace roots (valid and not), their
// parents, and segments that share a string prefix ('a', 'ab').
const startArb = fc.constantFrom(
  '',
  'a',
  '_',
  '_/workspaces',
  '_/workspaces/1',
  '_/workspaces/1',
  '_/workspaces/2',
  '_/workspaces/2',
  '_/workspaces/3',
  '_/workspaces/0',
  '_/workspaces/01',
);
const segmentArb = fc.constantFrom('a', 'ab', 'b', '1', '_', 'workspaces');
const pathArb = fc
  .tuple(startArb, fc.array(segmentArb, { maxLength: 3 }))
  .map(([start, more]) => [...(start === '' ? [] : start.split('/')), ...more].slice(0, 5).join('/'));
const childNameArb = fc.constantFrom('a', 'ab', 'b', '0', '1', '2', '3', '01', '_', 'workspaces');

const granteeArb: fc.Arbitrary<Grantee> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...USER_IDS).map((userId): Grantee => ({ kind: 'user', userId })) },
  { weight: 3, arbitrary: fc.constantFrom(...GROUP_IDS).map((groupId): Grantee => ({ kind: 'group', groupId })) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.constantFrom(...GROUP_IDS), { minLength: 1, maxLength: 3 })
      .map((groupIds): Grantee => ({ kind: 'groups', groupIds })),
  },
  // The contract forbids it; the engine must still fail closed.
  { weight: 1, arbitrary: fc.constant<Grantee>({ kind: 'groups', groupIds: [] }) },
  // Of any level: the forbidden ones (admin, history, bundle) must give nobody anything.
  { weight: 2, arbitrary: fc.constantFrom(...PARTNER_IDS).map((partnerId): Grantee => ({ kind: 'partner', partnerId })) },
);

const anyGrantFieldsArb = fc.record({
  pathKey: pathArb,
  grantee: granteeArb,
  level: fc.constantFrom(...LEVELS),
  recursive: fc.boolean(),
});
// Workspace root grants are rare among random fields; they decide the Workspace Administrator role.
const rootGrantFieldsArb = fc.record({
  pathKey: fc.constantFrom('_/workspaces/1', '_/workspaces/2', '_/workspaces/3', '_/workspaces/0'),
  grantee: granteeArb,
  level: fc.constantFrom<Level>('admin', 'admin', 'full'),
  recursive: fc.boolean(),
});
const grantFieldsArb = fc.oneof({ weight: 5, arbitrary: anyGrantFieldsArb }, { weight: 1, arbitrary: rootGrantFieldsArb });
const grantsArb = fc
  .array(grantFieldsArb, { maxLength: 12 })
  .map((fields) => fields.map((grant, index): Grant => ({ id: index + 1, ...grant })));

const userArb = fc.record({
  workspaceId: fc.integer({ min: 0, max: 3 }),
  // Mostly not, so that most cases exercise grants rather than the Site Administrator shortcut.
  siteAdmin: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  workspaceAdmin: fc.boolean(),
  groups: fc.subarray(GROUP_IDS),
  // Mostly none. A Partner user with flags or groups cannot be stored; the engine must still
  // give it its Partner's grants and nothing else.
  partnerId: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...PARTNER_IDS) }),
  // Now and then acting through a share link: a few paths, mostly near the grants, and what it lets be done.
  extent: fc.option(fc.record({
    paths: fc.array(fc.record({ pathKey: pathArb, recursive: fc.boolean() }), { minLength: 1, maxLength: 3 }),
    capabilities: fc.subarray<Capability>(['list', 'read', 'write', 'delete', 'history', 'share', 'manage']),
  }), { freq: 3 }),
});
const siteArb = fc.record({
  users: fc.tuple(...USER_IDS.map(() => userArb)),
  grants: grantsArb,
});
const typeArb = fc.constantFrom<EntryType>('file', 'directory');

function appendSegments(path: string, more: string[]): string {
  return [...(path === '' ? [] : path.split('/')), ...more].join('/');
}

/** Mostly paths on or just below the site's grants, where the rules have something to decide. */
function pathNear(grants: Grant[]): fc.Arbitrary<string> {
  if (grants.length === 0) return pathArb;
  const nearArb = fc
    .tuple(fc.constantFrom(...grants.map((grant) => grant.pathKey)), fc.array(segmentArb, { maxLength: 2 }))
    .map(([base, more]) => appendSegments(base, more));
  return fc.oneof({ weight: 1, arbitrary: pathArb }, { weight: 3, arbitrary: nearArb });
}

/** Mostly a folder on the way to the site's grants: a grant's path or one of its ancestors. */
function folderNear(grants: Grant[]): fc.Arbitrary<string> {
  if (grants.length === 0) return pathArb;
  const aboveArb = fc
    .tuple(fc.constantFrom(...grants.map((grant) => grant.pathKey.split('/'))), fc.nat(5))
    .map(([segments, drop]) => segments.slice(0, Math.max(0, segments.length - drop)).join('/'));
  return fc.oneof({ weight: 1, arbitrary: pathArb }, { weight: 3, arbitrary: aboveArb });
}

type Site = {
  users: { workspaceId: number; siteAdmin: boolean; workspaceAdmin: boolean; groups: number[]; partnerId: number | null; extent: Extent | null }[];
  grants: Grant[];
};

function subjectsOf(site: Site): Subject[] {
  return site.users.map((user, index) => ({
    userId: USER_IDS[index] as number,
    workspaceId: user.workspaceId,
    siteAdmin: user.siteAdmin,
    workspaceAdmin: user.workspaceAdmin,
    groupIds: new Set(user.groups),
    partnerId: user.partnerId,
    ...(user.extent === null ? {} : { extent: user.extent }),
  }));
}

function appliedGrantIds(decision: Decision): number[] {
  const ids = new Set<number>();
  for (const reason of decision.reasons) {
    if (reason.source.kind === 'grant') ids.add(reason.source.permissionId);
  }
  return [...ids].sort((a, b) => a - b);
}

function capabilitiesNamedByReasons(decision: Decision): string[] {
  const named = new Set(decision.reasons.flatMap((reason) => (reason.kind === 'capability' ? [reason.capability] : [])));
  return decision.capabilities.filter((capability) => named.has(capability));
}

const siteAndTargetsArb = siteArb.chain((site) =>
  fc.tuple(
    fc.constant(site),
    fc.array(fc.record({ pathKey: pathNear(site.grants), type: typeArb }), { minLength: 1, maxLength: 4 }),
  ),
);
const siteAndFolderArb = siteArb.chain((site) => fc.tuple(fc.constant(site), folderNear(site.grants)));

describe('authz engine against the reference model', () => {
  it(
    'decide agrees on capabilities, roles, applied grants and near misses',
    () => {
      fc.assert(
        fc.property(siteAndTargetsArb, ([site, targets]) => {
          for (const subject of subjectsOf(site)) {
            for (const target of targets) {
              const decision = decide(subject, target, site.grants);
              const expected = referenceDecide(subject, target, site.grants);
              expect({
                workspaceId: decision.workspaceId,
                capabilities: decision.capabilities,
                siteAdmin: decision.siteAdmin,
                workspaceAdmin: decision.workspaceAdmin,
                folderAdmin: decision.folderAdmin,
                appliedGrantIds: appliedGrantIds(decision),
                nearMissGrantIds: decision.nearMisses.map((miss) => miss.permissionId),
              }).toEqual(expected);
              // The explanation accounts for every capability, and every near miss says why.
              expect(capabilitiesNamedByReasons(decision)).toEqual(decision.capabilities);
              for (const miss of decision.nearMisses) expect(miss.reasons.length).toBeGreaterThan(0);
            }
          }
        }),
        parameters,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'the batch form equals a single check for every child, and the reference',
    () => {
      const childrenArb = fc.uniqueArray(
        fc.record({ name: childNameArb, type: typeArb }),
        { maxLength: 6, selector: (child) => child.name },
      );
      fc.assert(
        fc.property(siteAndFolderArb, childrenArb, ([site, folder], children: ChildEntry[]) => {
          for (const subject of subjectsOf(site)) {
            const listed = decideChildren(subject, folder, children, site.grants);
            const single = children.map((child) => {
              const pathKey = folder === '' ? child.name : `${folder}/${child.name}`;
              const { capabilities, siteAdmin, workspaceAdmin, folderAdmin } = decide(
                subject,
                { pathKey, type: child.type },
                site.grants,
              );
              return { name: child.name, pathKey, type: child.type, capabilities, siteAdmin, workspaceAdmin, folderAdmin };
            });
            expect(listed).toEqual(single);
            expect(
              listed.map(({ capabilities, siteAdmin, workspaceAdmin, folderAdmin }) => ({
                capabilities,
                siteAdmin,
                workspaceAdmin,
                folderAdmin,
              })),
            ).toEqual(referenceChildren(subject, folder, children, site.grants));
          }
        }),
        parameters,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'grants below a folder agree with the reference',
    () => {
      fc.assert(
        fc.property(siteAndFolderArb, ([site, folder]) => {
          for (const subject of subjectsOf(site)) {
            const expected = referenceChildNamesTowardGrants(subject, folder, site.grants);
            expect([...childNamesTowardGrants(subject, folder, site.grants)].sort()).toEqual(expected);
            expect(hasGrantBelow(subject, folder, site.grants)).toBe(expected.length > 0);
          }
        }),
        parameters,
      );
    },
    TIMEOUT_MS,
  );

  it(
    "replacement agrees with the reference and never changes anyone's access",
    () => {
      // Existing grants mostly of the new grant's grantee and on or below its path, so that
      // replacement actually happens; targets on or below any of them.
      // Also admin grants above the Workspace roots, which must not swallow a root grant.
      const aboveRootsArb = fc.record({
        pathKey: fc.constantFrom('', '_', '_/workspaces'),
        grantee: granteeArb,
        level: fc.constant<Level>('admin'),
        recursive: fc.boolean(),
      });
      const createdArb = fc.oneof({ weight: 4, arbitrary: grantFieldsArb }, { weight: 1, arbitrary: aboveRootsArb });
      const caseArb = createdArb.chain((created) => {
        const newGrant: Grant = { id: 100, ...created };
        const existingFieldsArb = fc.record({
          pathKey: fc.oneof(pathArb, pathNear([newGrant]), rootGrantFieldsArb.map((root) => root.pathKey)),
          grantee: fc.oneof({ weight: 1, arbitrary: granteeArb }, { weight: 3, arbitrary: fc.constant(created.grantee) }),
          level: fc.constantFrom(...LEVELS),
          recursive: fc.boolean(),
        });
        return fc
          .array(existingFieldsArb, { maxLength: 10 })
          .map((fields) => fields.map((grant, index): Grant => ({ id: index + 1, ...grant })))
          .chain((existing) =>
            fc.record({
              newGrant: fc.constant(newGrant),
              existing: fc.constant(existing),
              users: fc.tuple(...USER_IDS.map(() => userArb)),
              targets: fc.array(fc.record({ pathKey: pathNear([...existing, newGrant]), type: typeArb }), {
                minLength: 1,
                maxLength: 3,
              }),
            }),
          );
      });
      fc.assert(
        fc.property(caseArb, ({ newGrant, existing, users, targets }) => {
          const replaced = replacedGrantIds(newGrant, existing);
          expect(replaced).toEqual(referenceReplacedIds(newGrant, existing));

          const before = [...existing, newGrant];
          const after = [...existing.filter((grant) => !replaced.includes(grant.id)), newGrant];
          for (const subject of subjectsOf({ users, grants: [] })) {
            for (const target of targets) {
              const was = decide(subject, target, before);
              const is = decide(subject, target, after);
              expect(is.capabilities).toEqual(was.capabilities);
              expect(is.workspaceAdmin).toBe(was.workspaceAdmin);
              // A subfolder admin grant may give way to the Workspace root grant: the Folder Admin
              // role then becomes the wider Workspace Administrator role, never nothing.
              if (was.folderAdmin) expect(is.folderAdmin || is.workspaceAdmin).toBe(true);
            }
          }
        }),
        parameters,
      );
    },
    TIMEOUT_MS,
  );
});
