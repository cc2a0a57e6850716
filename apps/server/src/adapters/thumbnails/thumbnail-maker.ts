import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Sharp, SharpInput, SharpOptions } from 'sharp';
import { runTool, toolAvailable } from '../../lib/run-tool.ts';

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
  /** Decoding stops past this many pixels (width × height): a decompression bomb ends as an error. */
  maxInputPixels: number;
  /** The longest one source may take, per step (decoding, pdftoppm, ffmpeg). */
  timeoutMs: number;
}

/**
 * Makes a file's thumbnails from a copy of it on local disk (docs/decisions/0023-thumbnails.md):
 * images with sharp (EXIF orientation applied, metadata dropped, the first frame or page),
 * SVG rasterised, a PDF's first page with poppler's pdftoppm and a video's frame with
 * ffmpeg, each an optional program found on the PATH. Any failure rejects: the caller
 * records it as "no thumbnail".
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
  let tools: Promise<{ pdf: boolean; video: boolean }> | undefined;

  /** Both sizes from an image sharp reads: the large first, the small from it (cheap). */
  async function fromImage(input: string | Buffer, density?: number): Promise<MadeThumbnails> {
    const large = await (await sharp(input, { limitInputPixels: options.maxInputPixels, ...(density ? { density } : {}) }))
      .autoOrient()
      .resize({ width: THUMBNAIL_SIDES.large, height: THUMBNAIL_SIDES.large, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .timeout({ seconds: timeoutSeconds })
      .toBuffer();
    const small = await (await sharp(large))
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
    const prefix = path.join(workDir, 'page');
    await runTool('pdftoppm', ['-f', '1', '-l', '1', '-singlefile', '-png', '-scale-to', String(THUMBNAIL_SIDES.large), '--', source, prefix], options.timeoutMs);
    return fromImage(`${prefix}.png`);
  }

  async function fromVideo(source: string, workDir: string): Promise<MadeThumbnails> {
    const frame = path.join(workDir, 'frame.png');
    const grab = (seconds: string) =>
      runTool(
        'ffmpeg',
        ['-nostdin', '-hide_banner', '-loglevel', 'error', '-threads', '1', '-ss', seconds, '-i', source, '-frames:v', '1', '-vf', `scale='min(${THUMBNAIL_SIDES.large},iw)':-2`, '-y', frame],
        options.timeoutMs,
      );
    // A second in, past a fade from black; a shorter video gives no frame there, so its first.
    await grab('1');
    if (!(await stat(frame).catch(() => undefined))) await grab('0');
    return fromImage(frame);
  }

  return {
    /** Which optional programs this machine has, asked once. */
    tools(): Promise<{ pdf: boolean; video: boolean }> {
      tools ??= Promise.all([toolAvailable('pdftoppm', ['-v']), toolAvailable('ffmpeg', ['-version'])]).then(([pdf, video]) => ({ pdf, video }));
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
