import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { runTool, type ToolLimits } from '../../lib/run-tool.ts';

/**
 * The ffmpeg demuxers a video may be read with, each recognised by its first bytes. Nothing
 * else is ever opened: not the playlist demuxers (HLS, DASH), which read the URLs and local
 * files a playlist names; not concat or image sequences, which read other files; not the
 * image decoders behind a "video" that is really a picture.
 */
export type VideoContainer = 'mov' | 'matroska' | 'avi' | 'ogg' | 'flv' | 'asf' | 'mpegts' | 'mpeg';

const ASF_GUID = Buffer.from([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]);
/** Boxes a QuickTime or MP4 file starts with (ftyp in any MP4; the others in old QuickTime files). */
const MOV_FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip', 'pnot']);
/** How much of a file's start is read to recognise its container. */
export const SNIFF_BYTES = 4096;

/** The container of a video from its first bytes, or null when it is not one ffmpeg may read here. */
export function videoContainer(head: Buffer): VideoContainer | null {
  const ascii = (start: number, end: number) => head.toString('latin1', start, end);
  if (head.length >= 8 && MOV_FIRST_BOXES.has(ascii(4, 8))) return 'mov';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'AVI ') return 'avi';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  if (ascii(0, 3) === 'FLV') return 'flv';
  if (head.subarray(0, 8).equals(ASF_GUID)) return 'asf';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x000001ba) return 'mpeg';
  // MPEG-TS: a sync byte every 188 bytes (or 192, Blu-ray's M2TS, four bytes in).
  for (const [first, size] of [
    [0, 188],
    [4, 192],
  ] as const) {
    if (head.length > first + 2 * size && [0, 1, 2].every((packet) => head[first + packet * size] === 0x47)) return 'mpegts';
  }
  return null;
}

export interface FrameGrab {
  source: string;
  target: string;
  container: VideoContainer;
  /** Where in the video, in seconds. */
  at: number;
  /** Frames larger than this are not decoded (ffmpeg's max_pixels). */
  maxPixels: number;
  /** Long side of the frame written, at most. */
  side: number;
}

/**
 * ffmpeg's arguments for one frame: the file protocol only, the one demuxer the bytes showed
 * (forced, and the only one allowed, so no nested open picks another), a decoder refusing
 * frames past `maxPixels`, the first video stream only, one thread.
 */
export function frameGrabArgs(grab: FrameGrab): string[] {
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-threads',
    '1',
    '-filter_threads',
    '1',
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    grab.container,
    '-f',
    grab.container,
    '-max_pixels',
    String(grab.maxPixels),
    '-ss',
    String(grab.at),
    '-i',
    `file:${grab.source}`,
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    '-vf',
    `scale='min(${grab.side},iw)':-2`,
    '-y',
    `file:${grab.target}`,
  ];
}

async function head(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * A frame of the video at `source` as a PNG in `workDir`, by ffmpeg under `limits` and the
 * wall-clock `timeoutMs`: a second in (past a fade from black), else the first frame.
 */
export async function grabVideoFrame(
  source: string,
  workDir: string,
  options: { side: number; maxPixels: number; timeoutMs: number; limits: ToolLimits },
): Promise<string> {
  const container = videoContainer(await head(source));
  if (!container) throw new Error('not a video container this server reads (MP4, QuickTime, Matroska, WebM, AVI, Ogg, FLV, ASF, MPEG)');
  const target = path.join(workDir, 'frame.png');
  const grab = (at: number) =>
    runTool('ffmpeg', frameGrabArgs({ source, target, container, at, maxPixels: options.maxPixels, side: options.side }), {
      timeoutMs: options.timeoutMs,
      limits: options.limits,
    });
  await grab(1);
  // A video shorter than a second gives no frame there.
  if (!(await stat(target).catch(() => undefined))) await grab(0);
  return target;
}
