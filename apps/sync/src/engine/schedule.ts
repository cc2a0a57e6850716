/**
 * Carries out a pass's actions in parallel while keeping the plan's order wherever it
 * matters: an action waits for every earlier action on the same path, an ancestor or a
 * descendant of one of its paths (a folder made before what goes in it, a move before the
 * uploads into its new place, a deletion after the work beneath it). Unrelated actions run
 * side by side, up to a limit per lane. An action whose dependency failed is not run: the
 * next pass replans it.
 */
import type { Action, SyncPath } from '../model.ts';

/** Every path an action reads or writes. */
export function pathsOf(action: Action): SyncPath[] {
  switch (action.type) {
    case 'moveLocal':
    case 'moveRemote':
      return [action.from, action.to];
    case 'copyLocal':
      return [action.path, action.from];
    case 'conflict':
      return [action.path, action.copyPath];
    case 'agree':
      return [action.entry.path];
    default:
      return [action.path];
  }
}

/** The proper ancestors of a sync path: `a/b/c` -> `a`, `a/b`. */
function ancestorsOf(path: SyncPath): SyncPath[] {
  const ancestors: SyncPath[] = [];
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) ancestors.push(path.slice(0, slash));
  return ancestors;
}

/** For each action, the indexes of the earlier actions it must wait for. */
export function dependencies(actions: Action[]): number[][] {
  const lastAt = new Map<SyncPath, number>();
  const beneath = new Map<SyncPath, number[]>();
  return actions.map((action, index) => {
    const deps = new Set<number>();
    const paths = pathsOf(action);
    for (const path of paths) {
      for (const related of [...ancestorsOf(path), path]) {
        const last = lastAt.get(related);
        if (last !== undefined) deps.add(last);
      }
      for (const under of beneath.get(path) ?? []) deps.add(under);
    }
    for (const path of paths) {
      lastAt.set(path, index);
      for (const ancestor of ancestorsOf(path)) {
        const list = beneath.get(ancestor);
        if (list) list.push(index);
        else beneath.set(ancestor, [index]);
      }
    }
    deps.delete(index);
    return [...deps];
  });
}

/** Which lane an action runs in: transfers are many and batched by remote/, tree changes a few at a time. */
export type Lane = 'transfer' | 'tree' | 'bookkeeping';

/** The lane of an action. */
export function laneOf(action: Action): Lane {
  switch (action.type) {
    case 'upload':
    case 'download':
    case 'conflict':
    case 'copyRemote':
    case 'copyLocal':
      return 'transfer';
    case 'agree':
    case 'forget':
    case 'readOnly':
      return 'bookkeeping';
    default:
      return 'tree';
  }
}

/** How many actions of each lane may be in flight at once. */
export type LaneLimits = Record<Lane, number>;

/** Transfers are many to a request (remote/transfers.ts groups them): enough in flight to fill its parallel batches. */
export const DEFAULT_LIMITS: LaneLimits = { transfer: 2000, tree: 4, bookkeeping: 64 };

/** What became of one action. */
export type ActionOutcome = { ok: true } | { ok: false; error: string; skipped: boolean };

/**
 * Runs `run` for every action, respecting dependencies and lane limits; answers each
 * action's outcome, in the actions' order. `run` throwing is that action's failure.
 */
export async function runScheduled(
  actions: Action[],
  run: (action: Action) => Promise<void>,
  limits: LaneLimits = DEFAULT_LIMITS,
): Promise<ActionOutcome[]> {
  const deps = dependencies(actions);
  const outcomes: (ActionOutcome | undefined)[] = new Array(actions.length);
  const waitingOn = deps.map((list) => list.length);
  const dependents: number[][] = actions.map(() => []);
  deps.forEach((list, index) => {
    for (const dep of list) dependents[dep]?.push(index);
  });
  const ready: Record<Lane, number[]> = { transfer: [], tree: [], bookkeeping: [] };
  // Where each lane's queue is read from: shift() on a queue of 100,000 would copy it each time.
  const head: Record<Lane, number> = { transfer: 0, tree: 0, bookkeeping: 0 };
  const inFlight: Record<Lane, number> = { transfer: 0, tree: 0, bookkeeping: 0 };
  let finished = 0;

  return new Promise((resolve) => {
    const settle = (index: number, outcome: ActionOutcome) => {
      outcomes[index] = outcome;
      finished += 1;
      for (const next of dependents[index] ?? []) {
        if (!outcome.ok) {
          if (outcomes[next] === undefined) {
            const path = pathsOf(actions[index] as Action)[0];
            settle(next, { ok: false, error: `waits for ${path}, which failed`, skipped: true });
          }
          continue;
        }
        waitingOn[next] = (waitingOn[next] ?? 0) - 1;
        if (waitingOn[next] === 0 && outcomes[next] === undefined) ready[laneOf(actions[next] as Action)].push(next);
      }
    };
    const pump = () => {
      for (const lane of Object.keys(ready) as Lane[]) {
        const queue = ready[lane];
        while (head[lane] < queue.length && inFlight[lane] < limits[lane]) {
          const index = queue[head[lane]] as number;
          head[lane] += 1;
          if (outcomes[index] !== undefined) continue;
          inFlight[lane] += 1;
          run(actions[index] as Action).then(
            () => done(lane, index, { ok: true }),
            (error: unknown) => done(lane, index, { ok: false, error: (error as Error).message ?? String(error), skipped: false }),
          );
        }
      }
      if (finished === actions.length) resolve(outcomes as ActionOutcome[]);
    };
    const done = (lane: Lane, index: number, outcome: ActionOutcome) => {
      inFlight[lane] -= 1;
      settle(index, outcome);
      pump();
    };
    actions.forEach((action, index) => {
      if (waitingOn[index] === 0) ready[laneOf(action)].push(index);
    });
    pump();
  });
}
