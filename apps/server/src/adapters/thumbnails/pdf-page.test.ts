import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { halvesPdf, imageBombPdf } from '../../../test/helpers/image-fixtures.ts';
import { createPdfPageRenderer } from './pdf-page.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pdf-page-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const MiB = 1024 ** 2;

describe('the PDF page renderer', () => {
  it('draws the first page at most `side` pixels long, with nothing installed but npm packages', async () => {
    const renderer = createPdfPageRenderer({ memoryBytes: 256 * MiB, cpuSeconds: 30, timeoutMs: 30_000, maxImagePixels: 35_000_000 });
    await writeFile(path.join(dir, 'halves.pdf'), halvesPdf());
    await renderer.render(path.join(dir, 'halves.pdf'), path.join(dir, 'halves.png'), 300);
    const { width, height } = await sharp(path.join(dir, 'halves.png')).metadata();
    expect([width, height]).toEqual([300, 150]);
  }, 30_000);

  it('holds a drawing to what a blank page maps plus its memory, even with no limit on image pixels', async () => {
    // No pixel limit: only the address-space bound stands between this image and 2 GB.
    const renderer = createPdfPageRenderer({ memoryBytes: 256 * MiB, cpuSeconds: 30, timeoutMs: 60_000, maxImagePixels: -1 });
    const limits = await renderer.limits();
    expect(limits).not.toBeNull();
    await writeFile(path.join(dir, 'bomb.pdf'), await imageBombPdf());
    // Drawn without the image (pdf.js gives up on an allocation that fails), or refused.
    const peak = await renderer.render(path.join(dir, 'bomb.pdf'), path.join(dir, 'bomb.png'), 1280).catch(() => 0);
    expect(peak).toBeLessThanOrEqual(limits!.addressSpaceBytes);
  }, 60_000);
});
