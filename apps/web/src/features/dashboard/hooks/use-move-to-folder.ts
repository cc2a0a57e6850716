import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { driveKeys } from '../../../lib/query-keys';
import type { DraggedItemRef } from '../items';
import type { NameClashQuestion, UploadsSlot } from '../slots';

/** How a move asks about names the target folder holds; without it a clash is refused with the server's message. */
export interface MoveClashes {
  resolve: UploadsSlot['resolveNameClashes'];
  /** The moved item's name, as the question shows it. */
  nameOf: (ref: DraggedItemRef) => string;
}

type MoveConflict = 'replace' | 'keep-both';

/** PATCH one item into the folder, with the choice for a taken name (docs/api.md#name-clashes). */
function moveOne(ref: DraggedItemRef, targetFolderId: string | null, conflict?: MoveConflict): Promise<unknown> {
  const id = encodeURIComponent(ref.id);
  return ref.kind === 'folder'
    ? api.patch(`/user/folders/${id}`, { parentId: targetFolderId, ...(conflict ? { conflict } : {}) })
    : api.patch(`/files/${id}`, { folderId: targetFolderId, ...(conflict ? { conflict } : {}) });
}

const isNameTaken = (error: unknown) => error instanceof ApiError && error.status === 409 && error.code === 'NAME_TAKEN';

/**
 * Moves the items one by one (a refusal of one does not stop the others); those whose name
 * the target holds are asked about together (Replace for files, Keep both, Skip, with
 * "apply to all") and moved again with the choice. Answers what moved and the first refusal.
 */
export async function moveAll(refs: DraggedItemRef[], targetFolderId: string | null, targetName: string, clashes: MoveClashes | undefined) {
  const moved: DraggedItemRef[] = [];
  const taken: DraggedItemRef[] = [];
  let error: unknown = null;
  const attempt = async (ref: DraggedItemRef, conflict?: MoveConflict) => {
    try {
      await moveOne(ref, targetFolderId, conflict);
      moved.push(ref);
    } catch (caught) {
      if (clashes && conflict === undefined && isNameTaken(caught)) taken.push(ref);
      else error ??= caught;
    }
  };
  for (const ref of refs) await attempt(ref);
  if (clashes && taken.length > 0) {
    const questions = taken.map((ref): NameClashQuestion => ({
      name: clashes.nameOf(ref),
      folderName: targetName,
      canReplace: ref.kind === 'file',
    }));
    const choices = await clashes.resolve(questions);
    for (const [index, ref] of taken.entries()) {
      const choice = choices[index];
      if (choice === 'replace' || choice === 'keep-both') await attempt(ref, choice);
    }
  }
  return { moved, error };
}

/**
 * Moves items out of the open folder (`folderId`) into another, asking about names the
 * target holds when `clashes` is given, and saying how it went in a toast; `onMoved` runs
 * once the server has answered.
 */
export function useMoveToFolder(folderId: string | null, onMoved: () => void, clashes?: MoveClashes) {
  const queryClient = useQueryClient();
  return (refs: DraggedItemRef[], targetFolderId: string | null, targetName: string) => {
    // Dropping a folder onto itself, or items where they already are, moves nothing.
    const wanted = refs.filter((ref) => !(ref.kind === 'folder' && ref.id === targetFolderId));
    if (wanted.length === 0 || targetFolderId === folderId) return;
    void moveAll(wanted, targetFolderId, targetName, clashes).then(({ moved, error }) => {
      if (moved.length === 1) notify.success('dashboard.move.success', { values: { folder: targetName } });
      else if (moved.length > 1) notify.success('dashboard.move.successMany', { values: { count: moved.length, folder: targetName } });
      if (error) notify.error('dashboard.move.failed', { error });
      onMoved();
      void queryClient.invalidateQueries({ queryKey: driveKeys.all });
    });
  };
}
