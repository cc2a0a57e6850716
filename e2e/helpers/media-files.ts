import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';

/**
 * ffmpeg makes the journeys' pictures and video. It is a Debian package (.ci/run installs
 * it): missing, the journey fails with this message rather than skipping.
 */
export function requireFfmpeg(): void {
  const probe = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  if (probe.status !== 0) throw new Error('ffmpeg is needed to make the test pictures and video: apt-get install ffmpeg');
}

function ffmpeg(args: string[]): void {
  const run = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${run.stderr}`);
}

/** A still of ffmpeg's colour test pattern (PNG or JPEG by the extension). */
export function makePicture(dir: string, name: string, size = '1600x1200'): string {
  const file = path.join(dir, name);
  ffmpeg(['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=1`, '-frames:v', '1', file]);
  return file;
}

/** A WebM (VP8) clip of `seconds` with a moving pattern. */
export function makeWebm(dir: string, name: string, seconds = 4): string {
  const file = path.join(dir, name);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=320x240:rate=25:duration=${seconds}`,
    '-c:v',
    'libvpx',
    '-b:v',
    '300k',
    '-auto-alt-ref',
    '0',
    file,
  ]);
  return file;
}

/**
 * A small PDF of `pages` pages, each a coloured band and a line of text naming its page, so
 * a drawn page has pixels that are not white.
 */
export async function makePdf(dir: string, name: string, pages = 2): Promise<string> {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1;
  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, filled in once the pages' numbers are known
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const stream = `0.2 0.4 0.9 rg 40 600 515 150 re f BT /F1 36 Tf 0 0 0 rg 60 520 Td (Page ${page} of the test) Tj ET`;
    const content = add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${content} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${pages} >>`;
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const file = path.join(dir, name);
  await writeFile(file, pdf, 'latin1');
  return file;
}

/** Whether the PDF canvas has pixels that are not white (a page was drawn). */
export function pdfCanvasHasInk(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="pdf-page"]');
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return false;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    for (let index = 0; index < data.length; index += 4) {
      if (data[index]! < 200 || data[index + 1]! < 200 || data[index + 2]! < 200) return true;
    }
    return false;
  });
}
