import type { Action, BaseEntry, Issue, LocalEntry, RemoteEntry, Snapshot, SyncPath } from '../model.ts';
import { conflictCopyName } from './conflict-name.ts';
import { type Item, matchItems } from './match.ts';
import { comparePaths, depthOf, isAtOrUnder, parentOf, pathKey } from './paths.ts';
import { type Deletion, placeStructure } from './structure.ts';
import { transfers } from './transfers.ts';
import { indexSides, kindOf, localChanged, movedOn, remoteChanged, roleOf, type Sides } from './sides.ts';
import { placeWithoutCollisions } from './targets.ts';
import { allSidesAsBase } from './unchanged.ts';

/** How a pass is planned: who this device is, what time it is, how much may be deleted at once. */
export interface PlanOptions {
  /** The `--device` name given at login: it goes into conflict copies' names. */
  deviceName: string;
  /** The device's clock: the time in conflict copies' names and in issues. */
  now: Date;
  /** Share of the base's entries a pass may delete before it stops and asks (default 0.5; only when more than 10 would go). */
  massDeleteShare?: number;
  /** `--allow-mass-delete`: delete even past the share. */
  allowMassDelete?: boolean;
  /** The local disk compares names case-insensitively (macOS, Windows): case-only renames go through a temporary name. */
  caseInsensitiveDisk?: boolean;
}

/** The three sides of the comparison: the journal's last agreed state, the disk now, the drive now. */
export interface PlanInput {
  base: Snapshot<BaseEntry>;
  /** Hashes filled for files whose size, mtime or inode changed since the base. */
  local: Snapshot<LocalEntry>;
  remote: Snapshot<RemoteEntry>;
  options: PlanOptions;
}

/** What one pass does, in the order to carry it out. */
export interface Plan {
  actions: Action[];
  /** Set when the pass would delete more than the share allows: the plan then holds no deletions and the engine stops and asks. */
  massDelete?: { count: number; total: number };
  issues: Issue[];
}

/** Past this many items a pass's deletions are weighed against the share. */
const MASS_DELETE_FLOOR = 10;
const DEFAULT_MASS_DELETE_SHARE = 0.5;

/**
 * What becomes of an item: it stays (and is brought level on both sides), it is deleted on
 * one side because the other deleted it, or the journal forgets it (gone on both).
 */
type Fate = 'live' | 'deleteLocal' | 'deleteRemote' | 'forget';

/** The decision table's deletion rows: a deletion wins only over a side that did not change the item. */
function fateOf(item: Item, sides: Sides): Fate {
  const { base, local, remote } = item;
  if (!base) return 'live';
  if (!local && !remote) return 'forget';
  // A viewer cannot delete on the server: what the disk lost comes back.
  if (!local) return remoteChanged(item) || movedOn('remote', item, sides) || remote!.role === 'viewer' ? 'live' : 'deleteRemote';
  if (!remote) return localChanged(item) || movedOn('local', item, sides) ? 'live' : 'deleteLocal';
  return 'live';
}

/**
 * A folder one side deleted stays when something that stays is inside it (the other side
 * added or changed something there): it is made again where it went, and only the rest of
 * its subtree is deleted. Deepest first, so a kept folder keeps its parents too. Says
 * whether any folder was kept.
 */
function keepFoldersStillNeeded(items: Item[], fates: Map<Item, Fate>, targetOf: (item: Item) => SyncPath, skipped: Set<Item>): boolean {
  const holding = new Set<SyncPath>();
  const holdsFor = (path: SyncPath) => {
    for (let folder = parentOf(path); folder !== '' && !holding.has(folder); folder = parentOf(folder)) holding.add(folder);
  };
  for (const item of items) if (fates.get(item) === 'live' && !skipped.has(item)) holdsFor(targetOf(item));
  const deleted = items.filter(
    (item) => kindOf(item) === 'folder' && (fates.get(item) === 'deleteLocal' || fates.get(item) === 'deleteRemote'),
  );
  deleted.sort((a, b) => depthOf(targetOf(b)) - depthOf(targetOf(a)));
  let kept = false;
  for (const folder of deleted) {
    if (!holding.has(targetOf(folder))) continue;
    fates.set(folder, 'live');
    holdsFor(targetOf(folder));
    kept = true;
  }
  return kept;
}

/** A folder's deletion takes its subtree: its children's deletions on the same side are not listed again. */
function outermostDeletions(deletions: Deletion[]): Deletion[] {
  const folders = new Set(deletions.flatMap(({ action }) => (action.kind === 'folder' ? [`${action.type}:${action.path}`] : [])));
  const inDeletedFolder = ({ type, path }: Deletion['action']) => {
    for (let folder = parentOf(path); folder !== ''; folder = parentOf(folder)) if (folders.has(`${type}:${folder}`)) return true;
    return false;
  };
  return deletions.filter(({ action }) => !inDeletedFolder(action));
}

/** The path an action writes to (a move's destination). */
function writtenPath(action: Action): SyncPath {
  if (action.type === 'moveLocal' || action.type === 'moveRemote') return action.to;
  return action.type === 'agree' ? action.entry.path : action.path;
}

const byPath = (a: Action, b: Action) => comparePaths(writtenPath(a), writtenPath(b));

/**
 * Decides what one pass does from the three-way comparison of base, local and remote. Pure:
 * no I/O, the same input gives the same plan. The decision table is plan-pass.test.ts.
 *
 * Order: deletions that free a path something else takes (a file that became a folder);
 * then moves and new folders, shallowest first (structure.ts); then copies, conflicts,
 * uploads and downloads (transfers.ts); then the other deletions, outermost only.
 */
export function planPass(input: PlanInput): Plan {
  return allSidesAsBase(input.base, input.local, input.remote) ? { actions: [], issues: [] } : planEveryItem(input);
}

/** planPass without its shortcut for a tree where nothing changed: every item matched, placed and decided. */
export function planEveryItem(input: PlanInput): Plan {
  const { base, local, remote, options } = input;
  const at = options.now.toISOString();
  const issues: Issue[] = [];
  const report = (path: SyncPath, kind: Issue['kind'], message: string) => issues.push({ path, kind, message, at });
  const items = matchItems(base, local, remote);
  const sides = indexSides(items);
  const fates = new Map(items.map((item) => [item, fateOf(item, sides)]));

  const taken = new Set<string>([...local.keys(), ...remote.keys()].map(pathKey));
  const copyName = (path: SyncPath) => {
    const name = conflictCopyName(path, options.deviceName, options.now, (candidate) => taken.has(pathKey(candidate)));
    taken.add(pathKey(name));
    return name;
  };
  // One name per item and path however often it is asked for: placing is redone when folders are kept.
  const steppingAside = new Map<Item, Map<SyncPath, SyncPath>>();
  const asideName = (item: Item, path: SyncPath) => {
    const known = steppingAside.get(item) ?? new Map<SyncPath, SyncPath>();
    steppingAside.set(item, known);
    if (!known.has(path)) known.set(path, copyName(path));
    return known.get(path)!;
  };
  const stays = (item: Item) => fates.get(item) === 'live';
  const place = () => {
    const placing: Issue[] = [];
    const placed = placeWithoutCollisions(items, sides, stays, asideName, (issue) => placing.push({ ...issue, at }));
    return { ...placed, placing };
  };
  let placed = place();
  // A kept folder stays where it was: placing again sees whether it now stands in another's way.
  while (keepFoldersStillNeeded(items, fates, (item) => placed.targets.get(item)!, placed.skipped)) placed = place();
  const { targets, skipped } = placed;
  issues.push(...placed.placing);
  const targetOf = (item: Item) => targets.get(item)!;
  for (const item of items) taken.add(pathKey(targetOf(item)));

  const live = items.filter((item) => stays(item) && !skipped.has(item));
  const deletions = items.flatMap((item): Deletion[] => {
    const fate = fates.get(item);
    if (fate === 'deleteRemote')
      return [{ item, action: { type: 'deleteRemote', path: item.remote!.path, kind: kindOf(item), remoteId: item.remote!.id } }];
    if (fate === 'deleteLocal') return [{ item, action: { type: 'deleteLocal', path: item.local!.path, kind: kindOf(item) } }];
    return [];
  });
  // A deletion goes early when something that stays takes its place (or a place under it);
  // what it holds goes with it, save what stays (structure.ts lets that out first).
  const takenPlaces = new Set<string>();
  for (const item of live) {
    for (let place = pathKey(targetOf(item)); place !== '' && !takenPlaces.has(place); place = parentOf(place)) takenPlaces.add(place);
  }
  const freesPlace = ({ item }: Deletion) => takenPlaces.has(pathKey(targetOf(item)));
  const freeing = outermostDeletions(deletions.filter(freesPlace));
  const inFreeing = ({ action }: Deletion) =>
    freeing.some((early) => early.action.type === action.type && isAtOrUnder(action.path, early.action.path));
  const late = deletions.filter((deletion) => !inFreeing(deletion));
  // Forgets run last: a row the pass writes again at the same path (what stays ends there) is not forgotten after it.
  const written = new Set(live.map(targetOf));
  const forgets: Action[] = items.flatMap((item) =>
    fates.get(item) === 'forget' && !written.has(item.base!.path) ? [{ type: 'forget' as const, path: item.base!.path }] : [],
  );

  const share = options.massDeleteShare ?? DEFAULT_MASS_DELETE_SHARE;
  if (!options.allowMassDelete && deletions.length > MASS_DELETE_FLOOR && deletions.length > share * base.size) {
    // Nothing is deleted, nor put where a deletion would have made room for it.
    const blocked = freeing.map(({ item }) => pathKey(targetOf(item)));
    const kept = live.filter((item) => !blocked.some((key) => isAtOrUnder(pathKey(targetOf(item)), key)));
    return { actions: [...planSteps(kept, []), ...forgets], massDelete: { count: deletions.length, total: base.size }, issues };
  }
  return { actions: planSteps(live, freeing, late), issues };

  function planSteps(staying: Item[], early: Deletion[], late: Deletion[] = []): Action[] {
    const structure = placeStructure(staying, early, targetOf, (item) => roleOf(item, sides), options.caseInsensitiveDisk ?? false);
    const content = transfers(staying, targetOf, sides, structure.moved, copyName, report);
    // Where each is once the moves are done; a folder's deletion then takes what is still inside it.
    const moved = late.map(({ item, action }) => ({
      item,
      action: {
        ...action,
        path: action.type === 'deleteRemote' ? structure.remotePathAfter(action.path) : structure.localPathAfter(action.path),
      },
    }));
    const rest = outermostDeletions(moved).map(({ action }) => action);
    return [...structure.actions, ...content, ...[...rest, ...forgets].sort(byPath)];
  }
}
