import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Sharp, SharpInput, SharpOptions } from 'sharp';
import { toolAvailable, type ToolLimits } from '../../lib/run-tool.ts';
import { createPdfPageRenderer } from './pdf-page.ts';
import { grabVideoFrame } from './video-frame.ts';

/** Long side in pixels of each size (docs/api.md#thumbnails). */
export const THUMBNAIL_SIDES = { small: 256, large: 1280 } as const;
/** An SVG is read whole to be rasterised; past this it is refused rather than held. */
const MAX_SVG_BYTES = 8 * 1024 * 1024;

/** What a source turned into: two WebP images, small enough to hold (a few hundred KB at most). */
export interface MadeThumbnails {
  small: Buffer;
  large: Buffer;
}

/** What kind of source a type is, for making its thumbnail. */
export type ThumbnailSource = 'image' | 'svg' | 'pdf' | 'video';

export interface ThumbnailMakerOptions {
  /** sharp stops decoding past this many pixels (width x height): a decompression bomb ends as an error. */
  maxInputPixels: number;
  /** A video frame, or an image inside a PDF, with more pixels than this is not decoded. */
  maxFramePixels: number;
  /** The longest one source may take, per step (decoding, drawing a PDF page, ffmpeg). */
  timeoutMs: number;
  /** CPU time each outside program (ffmpeg, the PDF renderer) may use. */
  toolCpuSeconds: number;
  /** ffmpeg's whole address space, its libraries included (about 330 MB of it). */
  ffmpegAddressSpaceBytes: number;
  /** Memory the PDF renderer may use beyond what it maps to draw a blank page. */
  pdfRendererMemoryBytes: number;
}

/**
 * Makes a file's thumbnails from a copy of it on local disk (docs/decisions/0023-thumbnails.md):
 * images with sharp (EXIF orientation applied, metadata dropped, the first frame or page),
 * SVG rasterised, a PDF's first page with pdf.js in a child process, and a video's frame
 * with ffmpeg when it is on the PATH. Outside programs run under memory and CPU limits. Any
 * failure rejects: the caller records it as "no thumbnail".
 */
export function createThumbnailMaker(options: ThumbnailMakerOptions) {
  let loaded: Promise<(input: SharpInput, options?: SharpOptions) => Sharp> | undefined;
  /** libvips costs about 28 MB of memory: loaded with the first thumbnail, not at start-up. */
  function sharp(input: SharpInput, sharpOptions?: SharpOptions): Promise<Sharp> {
    loaded ??= import('sharp').then(({ default: load }) => {
      // One libvips thread per image, no cache of decoded images: a burst of photos takes
      // one core per thumbnail at a time, and memory goes back after each.
      load.concurrency(1);
      load.cache(false);
      return load;
    });
    return loaded.then((load) => load(input, sharpOptions));
  }
  const timeoutSeconds = Math.max(1, Math.ceil(options.timeoutMs / 1000));
  const ffmpegLimits: ToolLimits = { addressSpaceBytes: options.ffmpegAddressSpaceBytes, cpuSeconds: options.toolCpuSeconds };
  const pdfPages = createPdfPageRenderer({
    memoryBytes: options.pdfRendererMemoryBytes,
    cpuSeconds: options.toolCpuSeconds,
    timeoutMs: options.timeoutMs,
    maxImagePixels: options.maxFramePixels,
  });
  let tools: Promise<{ pdf: boolean; video: boolean }> | undefined;

  /** Both sizes from an image sharp reads: the large first, the small from it (cheap). */
  async function fromImage(input: string | Buffer, density?: number): Promise<MadeThumbnails> {
    const large = await (
      await sharp(input, { limitInputPixels: options.maxInputPixels, ...(density ? { density } : {}) })
    )
      .autoOrient()
      .resize({ width: THUMBNAIL_SIDES.large, height: THUMBNAIL_SIDES.large, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .timeout({ seconds: timeoutSeconds })
      .toBuffer();
    const small = await (
      await sharp(large)
    )
      .resize({ width: THUMBNAIL_SIDES.small, height: THUMBNAIL_SIDES.small, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .timeout({ seconds: timeoutSeconds })
      .toBuffer();
    return { small, large };
  }

  /** SVG is drawn at the density that makes its long side the large size, so small icons come out sharp too. */
  async function fromSvg(source: string): Promise<MadeThumbnails> {
    if ((await stat(source)).size > MAX_SVG_BYTES) throw new Error('SVG larger than the rasteriser accepts');
    // From memory, so that the drawing has no base path from which to load other files.
    const svg = await readFile(source);
    const { width, height } = await (await sharp(svg, { limitInputPixels: options.maxInputPixels })).metadata();
    const longSide = Math.max(width ?? 0, height ?? 0);
    if (longSide <= 0) throw new Error('SVG without a size');
    const density = Math.min(Math.max((72 * THUMBNAIL_SIDES.large) / longSide, 1), 2400);
    return fromImage(svg, density);
  }

  async function fromPdf(source: string, workDir: string): Promise<MadeThumbnails> {
    const page = path.join(workDir, 'page.png');
    await pdfPages.render(source, page, THUMBNAIL_SIDES.large);
    return fromImage(page);
  }

  async function fromVideo(source: string, workDir: string): Promise<MadeThumbnails> {
    const frame = await grabVideoFrame(source, workDir, {
      side: THUMBNAIL_SIDES.large,
      maxPixels: options.maxFramePixels,
      timeoutMs: options.timeoutMs,
      limits: ffmpegLimits,
    });
    return fromImage(frame);
  }

  return {
    /** Whether PDFs (pdf.js and its prebuilt canvas) and videos (ffmpeg, optional) can be drawn here, under their limits; asked once. */
    tools(): Promise<{ pdf: boolean; video: boolean }> {
      tools ??= Promise.all([pdfPages.available(), toolAvailable('ffmpeg', ['-version'], ffmpegLimits)]).then(([pdf, video]) => ({
        pdf,
        video,
      }));
      return tools;
    },

    /** The thumbnails of the file copied to `source`; `workDir` takes the tools' intermediate images. */
    make(kind: ThumbnailSource, source: string, workDir: string): Promise<MadeThumbnails> {
      switch (kind) {
        case 'image':
          return fromImage(source);
        case 'svg':
          return fromSvg(source);
        case 'pdf':
          return fromPdf(source, workDir);
        case 'video':
          return fromVideo(source, workDir);
      }
    },
  };
}

export type ThumbnailMaker = ReturnType<typeof createThumbnailMaker>;
