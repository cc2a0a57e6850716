import { randomBytes } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

/** Runs `task` for every index with at most `concurrency` at once. */
export async function promisePool(count: number, concurrency: number, task: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

export function randomContent(size: number): Buffer {
  return randomBytes(size);
}

/** The bytes of a finished Playwright download. */
export async function downloadedBytes(download: { path(): Promise<string | null> }): Promise<Buffer> {
  const file = await download.path();
  if (!file) throw new Error('The download failed');
  return readFile(file);
}

/** A sparse file of `size` bytes (no disk used): for the too-large upload check. */
export async function sparseFile(file: string, size: number): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.truncate(size);
  } finally {
    await handle.close();
  }
}

/**
 * Drops files on the page as a desktop drag would: a DataTransfer built in the page, with
 * dragenter and dragover first (the overlay shows), then drop. `beforeDrop` runs while the
 * files hover.
 */
export async function dropFiles(
  page: Page,
  files: Array<{ name: string; content: string; type?: string }>,
  beforeDrop?: () => Promise<void>,
): Promise<void> {
  await page.evaluate((list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([file.content], file.name, { type: file.type ?? 'text/plain' }));
    (window as unknown as { __e2eDrop: DataTransfer }).__e2eDrop = transfer;
    const target = document.querySelector('main') ?? document.body;
    for (const type of ['dragenter', 'dragover']) {
      target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }
  }, files);
  if (beforeDrop) await beforeDrop();
  await page.evaluate(() => {
    const transfer = (window as unknown as { __e2eDrop: DataTransfer }).__e2eDrop;
    const target = document.querySelector('main') ?? document.body;
    target.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
  });
}

export { readZip } from '../../apps/server/test/helpers/read-zip.ts';

/**
 * A file or folder of the dashboard's grid or list, by the name it shows. The cell's
 * accessible name is all its visible text (name, size, date), so it is matched by the
 * name's own text rather than by its whole accessible name.
 */
export const tile = (page: Page, name: string) => page.getByRole('gridcell').filter({ has: page.getByText(name, { exact: true }) });

/** Waits until the focus is on the grid cell showing `name` (its first paragraph is the name). */
export const waitForFocusedTile = (page: Page, name: string) =>
  page.waitForFunction((wanted) => {
    const focused = document.activeElement;
    return focused?.getAttribute('role') === 'gridcell' && focused.querySelector('p')?.textContent === wanted;
  }, name);

/**
 * Presses one of the file manager's toolbar buttons (New Folder, Grid view, List view…) as a
 * person would at the page's size: a phone's toolbar keeps them in its More menu.
 */
export async function pressToolbarButton(page: Page, name: string): Promise<void> {
  if ((page.viewportSize()?.width ?? 1280) >= 640) {
    await page.getByRole('button', { name, exact: true }).first().click();
    return;
  }
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('menu', { name: 'More' }).getByText(name, { exact: true }).click();
}
