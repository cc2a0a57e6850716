/** Gives the focus back to a file's row once the viewer it was opened in closes. */
export function focusFileRow(fileId: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-file-id="${CSS.escape(fileId)}"]`)?.focus());
}
