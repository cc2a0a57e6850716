/** The files before and after the one shown, in the folder's order; null at either end. */
export function neighbours<T extends { id: string }>(
  files: readonly T[],
  fileId: string,
): { previous: T | null; next: T | null; index: number } {
  const index = files.findIndex((file) => file.id === fileId);
  if (index < 0) return { previous: null, next: null, index };
  return { previous: files[index - 1] ?? null, next: files[index + 1] ?? null, index };
}

/**
 * Where the viewer goes when the file it shows leaves the list (deleted, moved): the file
 * that took its place, else the one before, else nowhere (null closes the viewer).
 */
export function successorOf<T extends { id: string }>(before: readonly T[], after: readonly T[], fileId: string): T | null {
  const index = before.findIndex((file) => file.id === fileId);
  const remaining = new Set(after.map((file) => file.id));
  for (const candidate of [...before.slice(index + 1), ...before.slice(0, Math.max(index, 0)).reverse()]) {
    if (remaining.has(candidate.id)) return after.find((file) => file.id === candidate.id) ?? null;
  }
  return null;
}
