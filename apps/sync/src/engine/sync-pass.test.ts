import { describe, expect, it } from 'vitest';
import type { ProgressReporter } from '../cli/progress.ts';
import { createJournal } from '../journal/journal.ts';
import { openPairDatabase } from '../journal/open-database.ts';
import type { Action, LocalEntry } from '../model.ts';
import { type Plan, type PlanInput, planPass } from '../reconcile/plan-pass.ts';
import type { LocalSide, RemoteSide } from './ports.ts';
import { runPass } from './sync-pass.ts';

const NOW = new Date('2026-12-06T15:30:12Z');

function silentProgress(lines: string[] = []): ProgressReporter {
  return {
    start: () => undefined,
    done: (line) => lines.push(line),
    print: (line) => lines.push(line),
    note: (line) => lines.push(line),
    finish: () => undefined,
  };
}

/** A disk holding `entries`, a drive that accepts uploads (or refuses them) and counts them. */
function sides(entries: LocalEntry[], options: { refuseUploads?: boolean } = {}) {
  const uploads: string[] = [];
  const local: LocalSide = {
    scan: async () => ({ entries: new Map(entries.map((entry) => [entry.path, entry])), issues: [], unsettled: [] }),
    // Never asked: the drive here has no version, so no pass is ever settled.
    matchesJournal: async () => false,
    stat: async (path) => entries.find((entry) => entry.path === path),
    mkdir: async () => undefined,
    move: async () => undefined,
    trash: async () => undefined,
    copy: async () => undefined,
  };
  const remote: RemoteSide = {
    rootId: async () => null,
    refresh: async () => ({ snapshot: () => new Map() }),
    mkdir: async () => 'folder-1',
    move: async () => undefined,
    delete: async () => undefined,
    copy: async () => ({ id: 'copy-1' }),
    upload: async (items) => {
      uploads.push(...items.map((item) => item.path));
      return items.map((item) => (options.refuseUploads ? { error: 'quota full' } : { id: `id-${item.path}` }));
    },
    download: async (items) => items.map((item) => ({ id: item.remoteId })),
  };
  return { local, remote, uploads };
}

/** A planner that answers the given plans in turn, then empty ones. */
function scripted(...plans: Plan[]) {
  const inputs: PlanInput[] = [];
  return {
    inputs,
    plan: (input: PlanInput): Plan => {
      inputs.push(input);
      return plans.shift() ?? { actions: [], issues: [] };
    },
  };
}

const file: LocalEntry = { path: 'a.txt', kind: 'file', size: 3, mtimeMs: 1000, inode: '1:2', hash: 'abc' };
const upload: Action = { type: 'upload', path: 'a.txt', size: 3, hash: 'abc' };

describe('runPass', () => {
  it('carries a plan out, journals each completion with the disk as scanned, and ends on an empty plan', async () => {
    const journal = createJournal(openPairDatabase(':memory:'));
    const { local, remote, uploads } = sides([file]);
    const planner = scripted({ actions: [upload], issues: [] });
    const result = await runPass(
      { local, remote, journal, plan: planner.plan, progress: silentProgress() },
      { deviceName: 'laptop', now: () => NOW },
    );
    expect(result).toEqual({ result: 'synced', message: '', done: 1, pending: 0 });
    expect(uploads).toEqual(['a.txt']);
    expect(journal.loadBase().get('a.txt')).toEqual({
      path: 'a.txt',
      kind: 'file',
      remoteId: 'id-a.txt',
      size: 3,
      hash: 'abc',
      mtimeMs: 1000,
      inode: '1:2',
    });
    expect(planner.inputs[1]?.base.has('a.txt')).toBe(true);
    expect(journal.lastPass()).toMatchObject({ result: 'synced', finishedAt: NOW.toISOString() });
  });

  it("does not read the drive's tree again while the drive is at the version where both sides last held the base, and the disk still does", async () => {
    const journal = createJournal(openPairDatabase(':memory:'));
    journal.agree({ path: 'a.txt', kind: 'file', remoteId: 'r1', size: 3, hash: 'abc', mtimeMs: 1000, inode: '1:2' });
    const disk = sides([file]);
    let version = 'v1';
    let snapshots = 0;
    const remote: RemoteSide = {
      ...disk.remote,
      refresh: async () => ({
        version,
        snapshot: () => {
          snapshots += 1;
          return new Map([['a.txt', { path: 'a.txt', kind: 'file', id: 'r1', size: 3, hash: 'abc', role: 'owner' }]]);
        },
      }),
    };
    const pass = () =>
      runPass({ local: disk.local, remote, journal, plan: planPass, progress: silentProgress() }, { deviceName: 'laptop', now: () => NOW });
    expect((await pass()).result).toBe('synced');
    expect((await pass()).result).toBe('synced');
    expect(snapshots).toBe(1);
    version = 'v2';
    expect((await pass()).result).toBe('synced');
    expect(snapshots).toBe(2);
    journal.agree({ path: 'a.txt', kind: 'file', remoteId: 'r1', size: 3, hash: 'abc', mtimeMs: 1000, inode: '1:2' });
    expect((await pass()).result).toBe('synced');
    expect(snapshots).toBe(3);
  });

  it('stops before anything when the plan would delete too much, naming --allow-mass-delete', async () => {
    const journal = createJournal(openPairDatabase(':memory:'));
    const { local, remote, uploads } = sides([file]);
    const planner = scripted({ actions: [upload], issues: [], massDelete: { count: 40, total: 50 } });
    const result = await runPass(
      { local, remote, journal, plan: planner.plan, progress: silentProgress() },
      { deviceName: 'laptop', now: () => NOW },
    );
    expect(result.result).toBe('mass-delete');
    expect(result.message).toContain('--allow-mass-delete');
    expect(uploads).toEqual([]);
  });

  it('--dry-run prints the plan and records nothing', async () => {
    const journal = createJournal(openPairDatabase(':memory:'));
    const { local, remote, uploads } = sides([file]);
    const lines: string[] = [];
    const planner = scripted({ actions: [upload, { type: 'moveRemote', from: 'x', to: 'y', kind: 'file', remoteId: 'r' }], issues: [] });
    const result = await runPass(
      { local, remote, journal, plan: planner.plan, progress: silentProgress(lines) },
      { deviceName: 'laptop', now: () => NOW, dryRun: true },
    );
    expect(result).toMatchObject({ result: 'dry-run', pending: 2 });
    expect(lines).toEqual(['upload  a.txt (3 B)', 'move on server  x -> y']);
    expect(uploads).toEqual([]);
    expect(journal.loadBase().size).toBe(0);
    expect(journal.lastPass()).toBeUndefined();
  });

  it('gives up on a failure that a second round does not mend, and reports it as failing', async () => {
    const journal = createJournal(openPairDatabase(':memory:'));
    const { local, remote } = sides([file], { refuseUploads: true });
    const planner = scripted(...Array.from({ length: 10 }, () => ({ actions: [upload], issues: [] })));
    const result = await runPass(
      { local, remote, journal, plan: planner.plan, progress: silentProgress() },
      { deviceName: 'laptop', now: () => NOW },
    );
    expect(result.result).toBe('failed');
    expect(result.message).toContain('quota full');
    expect(planner.inputs.length).toBeLessThan(5);
    expect(journal.issues()).toEqual([expect.objectContaining({ path: 'a.txt', kind: 'failing', message: 'quota full' })]);
  });

  it("forgets a conflict's path as soon as the local version is moved aside, so a pass cut short never deletes the server's", async () => {
    const journal = createJournal(openPairDatabase(':memory:'));
    journal.agree({ path: 'a.txt', kind: 'file', remoteId: 'r1', size: 1, hash: 'old', mtimeMs: 1, inode: '1:2' });
    const { local, remote } = sides([file], { refuseUploads: true });
    const conflict: Action = {
      type: 'conflict',
      path: 'a.txt',
      copyPath: 'a (conflicted copy laptop).txt',
      remoteId: 'r1',
      size: 5,
      hash: 'theirs',
      copySize: 3,
      copyHash: 'abc',
    };
    const planner = scripted({ actions: [conflict], issues: [] });
    await runPass(
      { local, remote, journal, plan: planner.plan, progress: silentProgress() },
      { deviceName: 'laptop', now: () => NOW, maxRounds: 1 },
    );
    expect(journal.loadBase().has('a.txt')).toBe(false);
  });
});
