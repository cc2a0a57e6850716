import type { Action, BaseEntry, Issue, LocalEntry, RemoteEntry, Snapshot } from '../model.ts';

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

/**
 * Decides what one pass does from the three-way comparison of base, local and remote. Pure:
 * no I/O, the same input gives the same plan.
 */
export function planPass(input: PlanInput): Plan {
  void input;
  return { actions: [], issues: [] };
}
