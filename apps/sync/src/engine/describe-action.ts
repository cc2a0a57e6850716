/** One line per action, as `--dry-run` prints the plan and the log shows what was done. */
import { formatBytes } from '../cli/progress.ts';
import type { Action } from '../model.ts';

/** `upload  Photos/a.jpg (2.1 MB)`, `move  a -> b`, … */
export function describeAction(action: Action): string {
  switch (action.type) {
    case 'upload':
      return `upload  ${action.path} (${formatBytes(action.size)})`;
    case 'download':
      return `download  ${action.path} (${formatBytes(action.size)})`;
    case 'copyRemote':
      return `copy on server  ${action.path} (${formatBytes(action.size)}, content already there)`;
    case 'copyLocal':
      return `copy on disk  ${action.from} -> ${action.path}`;
    case 'mkdirRemote':
      return `make folder on server  ${action.path}`;
    case 'mkdirLocal':
      return `make folder  ${action.path}`;
    case 'moveRemote':
      return `move on server  ${action.from} -> ${action.to}`;
    case 'moveLocal':
      return `move  ${action.from} -> ${action.to}`;
    case 'deleteRemote':
      return `delete on server (to Trash)  ${action.path}`;
    case 'deleteLocal':
      return `delete (to the local trash)  ${action.path}`;
    case 'conflict':
      return `conflict  ${action.path}: this device's version kept as ${action.copyPath}`;
    case 'agree':
      return `in sync  ${action.entry.path}`;
    case 'forget':
      return `gone on both sides  ${action.path}`;
    case 'readOnly':
      return `not uploaded (read-only)  ${action.path}: ${action.reason}`;
  }
}

/** Bytes an action moves over the network (for progress). */
export function actionBytes(action: Action): number {
  return action.type === 'upload' || action.type === 'download' || action.type === 'conflict' ? action.size : 0;
}

/** Whether an action is bookkeeping only (nothing moves on either side): not shown as progress. */
export function isBookkeeping(action: Action): boolean {
  return action.type === 'agree' || action.type === 'forget';
}
