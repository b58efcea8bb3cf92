import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ActionWatch, ActionWatchIndex, actionWatchOf, type FileAction, watchTakes } from '../../src/automations/index.js';

/**
 * The index of `action` automations (automations/action-watch-index.ts) looks only in the folders
 * above a file; a scan of every automation is the reference it must agree with exactly.
 */

const ACTIONS: FileAction[] = ['create', 'update', 'copy', 'move', 'destroy', 'read'];
const NAMES = ['a', 'B', 'in', 'out', 'x.csv', 'y.txt', 'a.tmp'];
const GLOB_SEGMENTS = [...NAMES, '*', '**', '?', '*.csv', 'i?', '[ab]', '[!a]', '{a,in}', '{in,out/a}', 'x\\*', 'IN'];

const segments = (from: string[], max: number) => fc.array(fc.constantFrom(...from), { minLength: 0, maxLength: max }).map((parts) => parts.join('/'));

const watchArb = fc.record({
  id: fc.nat(),
  workspaceId: fc.constantFrom(0, 1, 2),
  path: fc.oneof(segments(GLOB_SEGMENTS, 3), fc.constant('_/Workspaces/1/in'), fc.constant('_/Workspaces/{1,2}/**')),
  source: fc.option(segments(GLOB_SEGMENTS, 2), { nil: null }),
  excludePattern: fc.option(fc.constantFrom('*.tmp', '**/out/**', 'a*'), { nil: null }),
  triggerActions: fc.subarray([...ACTIONS, 'archived_delete'], { minLength: 1 }),
});

const sitePathArb = fc.tuple(fc.constantFrom('', '_/Workspaces/1/', '_/Workspaces/2/', '_/workspaces/1/'), segments(NAMES, 4))
  .filter(([, rest]) => rest !== '')
  .map(([root, rest]) => `${root}${rest}`);

function scan(watches: readonly ActionWatch[], action: FileAction, sitePath: string): number[] {
  return watches.filter((watch) => watchTakes(watch, action, sitePath)).map((watch) => watch.id).sort((a, b) => a - b);
}

describe('the index of action automations', () => {
  it('returns exactly the automations a scan of all of them takes', () => {
    fc.assert(fc.property(fc.array(watchArb, { maxLength: 30 }), fc.array(fc.tuple(fc.constantFrom(...ACTIONS), sitePathArb), { minLength: 1, maxLength: 20 }), (rows, events) => {
      const watches = rows.map((row, i) => actionWatchOf({ ...row, id: i })).filter((watch): watch is ActionWatch => watch !== undefined);
      const index = new ActionWatchIndex(watches);
      for (const [action, sitePath] of events) {
        expect(index.watchersOf(action, sitePath).map((watch) => watch.id).sort((a, b) => a - b)).toEqual(scan(watches, action, sitePath));
      }
    }), { numRuns: 500 });
  });

  it.each([
    // workspace, path, source, exclude, the file's site path, taken
    [1, 'in', null, null, '_/Workspaces/1/in/a.txt', true],
    [1, 'in', null, null, '_/Workspaces/2/in/a.txt', false],
    [1, 'in', null, null, 'in/a.txt', false],
    [1, 'in', null, '*.tmp', '_/Workspaces/1/in/a.tmp', false],
    [1, 'in', null, null, '_/Workspaces/1/in/sub/a.txt', false],
    [1, 'in/**', '*.csv', null, '_/Workspaces/1/IN/sub/a.CSV', true],
    [0, 'in', null, null, 'in/a.txt', true],
    [0, 'in', null, null, '_/Workspaces/1/in/a.txt', false],
    [0, '_/Workspaces/1/in', null, null, '_/Workspaces/1/in/a.txt', true],
    [0, '**', null, null, '_/Workspaces/1/in/a.txt', true],
  ] as const)('in Workspace %i, %s/%s without %s takes %s: %s', (workspaceId, path, source, excludePattern, sitePath, taken) => {
    const watch = actionWatchOf({ id: 1, workspaceId, path, source, excludePattern, triggerActions: ['create'] }) as ActionWatch;
    expect(new ActionWatchIndex([watch]).watchersOf('create', sitePath).length > 0).toBe(taken);
    expect(new ActionWatchIndex([watch]).watchersOf('read', sitePath)).toEqual([]);
  });
});
