/** At most this many toasts show at once (issue 36); more would cover the page. */
export const TOAST_LIMIT = 3;

/**
 * The ids of the toasts that may show: the newest TOAST_LIMIT still visible. react-hot-toast
 * keeps its toasts newest first; one updated in place (a grouped toast counting up) keeps its
 * place.
 */
export function newestShown(toasts: ReadonlyArray<{ id: string; visible: boolean }>, limit = TOAST_LIMIT): Set<string> {
  return new Set(
    toasts
      .filter((item) => item.visible)
      .slice(0, limit)
      .map((item) => item.id),
  );
}
