import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { runTool, type ToolLimits } from '../../lib/run-tool.ts';

const nodeRequire = createRequire(import.meta.url);

/** A blank one-page PDF: what the renderer draws once to show it works and how much it maps doing so. */
const BLANK_PDF =
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';

/**
 * Node maps about 2 GB of address space before it reads a byte (V8's code range and heap
 * reservations, pdf.js's WebAssembly): a bound on address space alone would be meaningless
 * or would stop it starting. The child's own start, measured once, plus `memoryBytes` is its bound.
 */
const NODE_FLAGS = ['--disable-wasm-trap-handler', '--v8-pool-size=1'];
/** One malloc arena and one libuv thread: each more thread would map tens of MB the measure missed. */
const CHILD_ENV = { MALLOC_ARENA_MAX: '1', UV_THREADPOOL_SIZE: '1' };

export interface PdfPageOptions {
  /** Memory the renderer may take beyond what it maps to draw a blank page. */
  memoryBytes: number;
  cpuSeconds: number;
  timeoutMs: number;
  /** An image in the PDF with more pixels is left out of the drawing. */
  maxImagePixels: number;
}

/**
 * Draws a PDF's first page with pdf.js in a child process of its own (render-pdf-page.mjs)
 * under memory and CPU limits: no system package, and a hostile PDF costs at most its limits.
 */
export function createPdfPageRenderer(options: PdfPageOptions) {
  const pdfjsDir = path.dirname(nodeRequire.resolve('pdfjs-dist/package.json'));
  const pdfjs = path.join(pdfjsDir, 'legacy/build/pdf.mjs');
  // Through the workspace's link, so that the bundled server (dist/) finds it as the sources do.
  const script = nodeRequire.resolve('@cloudvault/server/src/adapters/thumbnails/render-pdf-page.mjs');
  let measured: Promise<ToolLimits | null> | undefined;

  function draw(source: string, target: string, side: number, limits: ToolLimits): Promise<string> {
    const request = {
      source,
      target,
      side,
      maxImagePixels: options.maxImagePixels,
      standardFontDataUrl: `${path.join(pdfjsDir, 'standard_fonts')}/`,
      wasmUrl: `${path.join(pdfjsDir, 'wasm')}/`,
      iccUrl: `${path.join(pdfjsDir, 'iccs')}/`,
    };
    return runTool(process.execPath, [...NODE_FLAGS, script, pdfjs, JSON.stringify(request)], {
      timeoutMs: options.timeoutMs,
      limits,
      env: CHILD_ENV,
    });
  }

  /** The limits of a real run: a blank page drawn (under generous ones) shows what the child maps by itself. */
  async function measure(): Promise<ToolLimits> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pdf-renderer-'));
    try {
      await writeFile(path.join(dir, 'blank.pdf'), BLANK_PDF);
      const peakKib = Number(
        await draw(path.join(dir, 'blank.pdf'), path.join(dir, 'blank.png'), 16, {
          addressSpaceBytes: 64 * 1024 ** 3,
          cpuSeconds: options.cpuSeconds,
        }),
      );
      if (!(peakKib > 0)) throw new Error('the PDF renderer reported no memory figure');
      return { addressSpaceBytes: peakKib * 1024 + options.memoryBytes, cpuSeconds: options.cpuSeconds };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  function limits(): Promise<ToolLimits | null> {
    measured ??= measure().catch(() => null);
    return measured;
  }

  return {
    /** Whether PDFs can be drawn here (pdfjs-dist and a prebuilt canvas for this platform, prlimit), asked once. */
    async available(): Promise<boolean> {
      return (await limits()) !== null;
    },

    /** The limits each drawing runs under, or null when PDFs cannot be drawn here. */
    limits,

    /**
     * Writes the first page of `source` as a PNG at most `side` pixels on its long side;
     * resolves with the most address space the drawing mapped, in bytes.
     */
    async render(source: string, target: string, side: number): Promise<number> {
      const bounds = await limits();
      if (!bounds) throw new Error('PDF pages cannot be drawn on this machine');
      return Number(await draw(source, target, side, bounds)) * 1024;
    },
  };
}

export type PdfPageRenderer = ReturnType<typeof createPdfPageRenderer>;
