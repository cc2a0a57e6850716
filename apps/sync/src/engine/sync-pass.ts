/**
 * One pass: bring the remote mirror up to date, scan the disk, plan the three-way comparison,
 * carry the plan out, and check again (rescan and refresh) until a plan holds nothing more to
 * do, a few rounds at most. A pass that would delete more than the planner allows stops and
 * asks for --allow-mass-delete; --dry-run prints the first plan and changes nothing.
 */
import type { Plan, PlanInput, PlanOptions } from '../reconcile/plan-pass.ts';
import { followReplacedFiles } from '../reconcile/replaced-files.ts';
import { allSidesAsBase, diskAsBase } from '../reconcile/unchanged.ts';
import type { Action, Issue, RemoteEntry, Snapshot, SyncPath } from '../model.ts';
import type { ProgressReporter } from '../cli/progress.ts';
import { SHARED_WITH_ME_ID } from '../remote/remote-mirror.ts';
import { createBatcher } from './batcher.ts';
import { SETTLE_MS } from '../local/stability.ts';
import { actionBytes, describeAction, isBookkeeping } from './describe-action.ts';
import { executeAction, type ExecutionContext } from './execute-action.ts';
import type { Journal, LocalSide, RemoteSide } from './ports.ts';
import { DEFAULT_LIMITS, type LaneLimits, runScheduled } from './schedule.ts';

export interface PassDependencies {
  local: LocalSide;
  remote: RemoteSide;
  journal: Journal;
  plan: (input: PlanInput) => Plan;
  progress: ProgressReporter;
}

export interface PassOptions {
  deviceName: string;
  now: () => Date;
  dryRun?: boolean;
  allowMassDelete?: boolean;
  caseInsensitiveDisk?: boolean;
  /** Plans carried out before the pass gives up on reaching an empty one. */
  maxRounds?: number;
  limits?: LaneLimits;
}

/** How a pass ended; `synced` only when the last plan held nothing to do and nothing failed. */
export interface PassResult {
  result: 'synced' | 'pending' | 'failed' | 'mass-delete' | 'dry-run';
  message: string;
  done: number;
  pending: number;
}

/** A file written to for longer than this many settle intervals is reported as pending, not waited for. */
const MAX_SETTLE_WAITS = 30;

/** Actions that leave something to do: a read-only change stays read-only pass after pass, and is reported, not pending. */
const isWork = (action: Action) => action.type !== 'readOnly';

/**
 * Records a round's issues. Skipped items and read-only changes are found again by every
 * scan and plan, so they replace the last ones; a rename (name) is said once and kept.
 */
function recordIssues(journal: Journal, issues: Issue[]): void {
  for (const kind of ['skipped', 'read-only'] as const) journal.resolveKind(kind);
  for (const issue of issues) journal.report(issue);
}

/** Conflict copies and renamed items the person has since dealt with (deleted, renamed, merged) are no longer reported. */
function resolveHandledIssues(journal: Journal, base: ReadonlyMap<SyncPath, unknown>): void {
  for (const issue of journal.issues()) {
    if ((issue.kind === 'conflict' || issue.kind === 'name') && !base.has(issue.path)) journal.resolve(issue.path, issue.kind);
  }
}

/**
 * Whether nothing changed since a pass found both sides holding exactly the journal's base:
 * the drive still at that version, and the disk, walked without holding it, as the journal
 * left it. Over an unchanged tree of 100,000 files that keeps the pass's memory to the walk's
 * (no snapshot of the base, the disk or the drive); anything else takes a full pass.
 */
async function unchangedSinceSettled(deps: PassDependencies): Promise<boolean> {
  const { journal } = deps;
  const settledAt = journal.settledAt();
  if (settledAt === undefined || (await deps.remote.refresh()).version !== settledAt) return false;
  return deps.local.matchesJournal({ in: (folder) => journal.baseIn(folder), count: journal.baseCount() });
}

/** Runs one pass and records its summary in the journal (not for --dry-run: it changes nothing). */
export async function runPass(deps: PassDependencies, options: PassOptions): Promise<PassResult> {
  const { journal, progress } = deps;
  if (await unchangedSinceSettled(deps)) {
    if (options.dryRun) return { result: 'dry-run', message: '0 changes would be made', done: 0, pending: 0 };
    return finish(journal, options.now(), { result: 'synced', message: '', done: 0, pending: 0 });
  }
  const maxRounds = options.maxRounds ?? 4;
  const planOptions: PlanOptions = {
    deviceName: options.deviceName,
    now: options.now(),
    allowMassDelete: options.allowMassDelete ?? false,
    caseInsensitiveDisk: options.caseInsensitiveDisk ?? false,
  };
  let done = 0;
  let failures: string[] = [];
  let doneBefore = 0;
  let settleWaits = 0;
  for (let round = 0; ; round += 1) {
    const known = journal.loadBase();
    const [remote, scan] = await Promise.all([deps.remote.refresh(), deps.local.scan(known)]);
    // Both sides held exactly this base when the drive was last at this version, and the disk
    // still does: the plan is empty (as planPass finds it, allSidesAsBase), so the drive's tree
    // is not even read. Its empty stand-in is never looked at: an empty plan ends the pass.
    const settled = remote.version !== undefined && journal.settledAt() === remote.version && diskAsBase(known, scan.entries);
    const remoteEntries: Snapshot<RemoteEntry> = settled ? new Map() : remote.snapshot();
    const base = settled ? known : followReplacedFiles(known, remoteEntries);
    const plan = settled
      ? { actions: [], issues: [] }
      : deps.plan({ base, local: scan.entries, remote: remoteEntries, options: { ...planOptions, now: options.now() } });
    const work = plan.actions.filter(isWork);

    if (options.dryRun) {
      for (const action of plan.actions) if (!isBookkeeping(action)) progress.print(describeAction(action));
      if (plan.massDelete) progress.note(massDeleteMessage(plan.massDelete));
      const pending = work.filter((action) => !isBookkeeping(action)).length;
      return { result: 'dry-run', message: `${pending} change${pending === 1 ? '' : 's'} would be made`, done: 0, pending };
    }

    recordIssues(journal, [...scan.issues, ...plan.issues, ...readOnlyIssues(plan.actions, options.now())]);
    for (const issue of scan.issues) progress.note(`${issue.path}: ${issue.message}`);
    if (plan.massDelete && !options.allowMassDelete) {
      return finish(journal, options.now(), {
        result: 'mass-delete',
        message: massDeleteMessage(plan.massDelete),
        done,
        pending: work.length,
      });
    }
    if (work.length === 0 && scan.unsettled.length > 0 && settleWaits < MAX_SETTLE_WAITS) {
      // Files still being written: look again once they have had time to settle.
      settleWaits += 1;
      round -= 1;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      continue;
    }
    if (work.length === 0) {
      if (scan.unsettled.length > 0) {
        return finish(journal, options.now(), {
          result: 'pending',
          message: `${scan.unsettled.length} file(s) still being written`,
          done,
          pending: scan.unsettled.length,
        });
      }
      resolveHandledIssues(journal, base);
      if (!settled && remote.version !== undefined && base === known && allSidesAsBase(base, scan.entries, remoteEntries)) {
        journal.markSettled(remote.version);
      }
      return finish(journal, options.now(), { result: 'synced', message: '', done, pending: 0 });
    }
    // A round that only failed would fail again the same way: stop rather than hammer.
    if (round === maxRounds || (round > 0 && doneBefore === done && failures.length > 0)) {
      const message = failures.length > 0 ? `${failures.length} failed: ${failures.slice(0, 3).join('; ')}` : 'changes kept arriving';
      return finish(journal, options.now(), { result: failures.length > 0 ? 'failed' : 'pending', message, done, pending: work.length });
    }

    failures = [];
    doneBefore = done;
    const rootId = await deps.remote.rootId();
    const folderIds = new Map<SyncPath, string | null>([['', rootId]]);
    for (const [path, entry] of remoteEntries) if (entry.kind === 'folder' && entry.id !== SHARED_WITH_ME_ID) folderIds.set(path, entry.id);
    const context: ExecutionContext = {
      local: deps.local,
      remote: deps.remote,
      journal,
      folderIds,
      localEntries: scan.entries,
      remoteEntries,
      upload: createBatcher((items) => deps.remote.upload(items)),
      download: createBatcher((items) => deps.remote.download(items)),
      now: options.now,
    };
    const shown = plan.actions.filter((action) => !isBookkeeping(action));
    progress.start(
      shown.length,
      shown.reduce((sum, action) => sum + actionBytes(action), 0),
    );
    const outcomes = await runScheduled(
      plan.actions,
      async (action) => {
        await executeAction(context, action);
        if (!isBookkeeping(action)) progress.done(describeAction(action), actionBytes(action));
      },
      options.limits ?? DEFAULT_LIMITS,
    );
    outcomes.forEach((outcome, index) => {
      const action = plan.actions[index] as Action;
      if (outcome.ok) {
        if (isWork(action) && !isBookkeeping(action)) done += 1;
        return;
      }
      const path = describeAction(action);
      if (!outcome.skipped) {
        failures.push(`${path}: ${outcome.error}`);
        progress.note(`failed: ${path}: ${outcome.error}`);
        journal.report({ path: pathOfAction(action), kind: 'failing', message: outcome.error, at: options.now().toISOString() });
      }
    });
  }
}

function pathOfAction(action: Action): SyncPath {
  if (action.type === 'agree') return action.entry.path;
  return 'path' in action ? action.path : action.to;
}

function readOnlyIssues(actions: Action[], now: Date): Issue[] {
  return actions.flatMap((action) =>
    action.type === 'readOnly' ? [{ path: action.path, kind: 'read-only' as const, message: action.reason, at: now.toISOString() }] : [],
  );
}

function massDeleteMessage(massDelete: { count: number; total: number }): string {
  return `This pass would delete ${massDelete.count} of ${massDelete.total} items: nothing was deleted. If that is intended, run again with --allow-mass-delete.`;
}

function finish(journal: Journal, now: Date, result: PassResult): PassResult {
  journal.recordPass({ finishedAt: now.toISOString(), ...result });
  // A path that synced is no longer failing.
  if (result.result === 'synced') journal.resolveKind('failing');
  return result;
}
