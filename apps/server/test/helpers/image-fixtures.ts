import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32, createDeflate, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Whether a program is on this machine (the optional thumbnail tools). */
export const installed = (command: string, versionFlag: string) => spawnSync(command, [versionFlag], { stdio: 'ignore' }).status === 0;

export const RED = { r: 255, g: 0, b: 0 };
export const BLUE = { r: 0, g: 0, b: 255 };

/** A 2:1 image, red on its left half and blue on its right, in a format sharp writes. */
export function halves(format: 'jpeg' | 'png' | 'gif' | 'webp' | 'avif' | 'tiff', options: { orientation?: number } = {}): Promise<Buffer> {
  const [width, height] = [400, 200];
  const left = { input: { create: { width: width / 2, height, channels: 3 as const, background: RED } }, left: 0, top: 0 };
  let image = sharp({ create: { width, height, channels: 3, background: BLUE } }).composite([left]);
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image.toFormat(format).toBuffer();
}

/** An SVG 40×20 (drawn much larger as a thumbnail), red then blue. */
export const HALVES_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="20" height="20" fill="#f00"/><rect x="20" width="20" height="20" fill="#00f"/></svg>';

/** A PDF of these objects (numbered from 1, the first the catalog), with a correct cross-reference table. */
function pdfOf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [];
  let length = 0;
  const add = (part: string | Buffer) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  add('%PDF-1.4\n');
  const offsets = objects.map((body, index) => {
    const offset = length;
    add(`${index + 1} 0 obj\n`);
    add(body);
    add('\nendobj\n');
    return offset;
  });
  const xref = length;
  add(
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`,
  );
  add(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** A one-page PDF 400×200 pt, red then blue. */
export function halvesPdf(): Buffer {
  const content = '1 0 0 rg 0 0 200 200 re f 0 0 1 rg 200 0 200 200 re f';
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

/** A one-page PDF that draws a 12000×12000 grey image (144 megapixels decoded) from about 150 KB. */
export async function imageBombPdf(side = 12_000): Promise<Buffer> {
  const pixels = await deflatedZeros(side * side);
  const content = 'q 400 0 0 200 0 0 cm /Im1 Do Q';
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>\nstream\n`,
        'latin1',
      ),
      pixels,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}

/** A two-second WebM, blue throughout, made with ffmpeg (small and fast to encode). */
export async function blueWebm(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'webm-'));
  try {
    const out = path.join(dir, 'blue.webm');
    const result = spawnSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=blue:s=160x120:d=2:r=5',
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-y',
      out,
    ]);
    if (result.status !== 0) throw new Error(`ffmpeg could not make a WebM: ${result.stderr.toString()}`);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A decompression bomb's header: a PNG that declares 20000×20000 pixels (1.6 GB decoded) in a few hundred bytes. */
export function bombPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20_000, 0);
  header.writeUInt32BE(20_000, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64 * 1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A real PNG of `side`×`side` grey pixels (12000: 144 megapixels, a few hundred KB, every
 * row present), as a hostile upload sends it to make a decoder allocate a frame that large.
 */
/** `length` zero bytes deflated (zlib format), made a megabyte at a time rather than held whole. */
async function deflatedZeros(length: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = length; left > 0; left -= zeros.length) {
    if (!deflate.write(zeros.subarray(0, Math.min(left, zeros.length)))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

export async function hugePng(side = 12_000): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 0, 0, 0, 0], 8);
  // Each row: filter byte 0 and `side` zero bytes; zeros deflate about a thousand to one.
  const pixels = await deflatedZeros((side + 1) * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Runs ffmpeg in `dir` for a test's media, failing with its message. */
function ffmpegIn(dir: string, args: string[]): void {
  const result = spawnSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', ...args], { cwd: dir });
  if (result.status !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${result.stderr.toString()}`);
}

/** A QuickTime movie whose one frame is `png` stored as is (ffmpeg copies the PNG, it does not decode it). */
export async function pngAsMovie(png: Buffer, dir: string): Promise<Buffer> {
  await writeFile(path.join(dir, 'frame.png'), png);
  ffmpegIn(dir, ['-i', 'frame.png', '-c:v', 'copy', '-f', 'mov', 'frame.mov']);
  return readFile(path.join(dir, 'frame.mov'));
}

/** An MPEG-TS clip of two red seconds, written to `dir`: what a hostile playlist points at. */
export function redTransportStream(dir: string, name = 'red.ts'): string {
  ffmpegIn(dir, ['-f', 'lavfi', '-i', 'color=c=red:s=160x120:d=2:r=5', '-c:v', 'mpeg2video', '-f', 'mpegts', name]);
  return path.join(dir, name);
}

/** The colour of the thumbnail's pixel at a fraction of its width and height. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (Math.floor(y * (info.height - 1)) * info.width + Math.floor(x * (info.width - 1))) * info.channels;
  return { r: data[offset] as number, g: data[offset + 1] as number, b: data[offset + 2] as number };
}

/** Whether a colour is near another (lossy formats shift them a little). */
export const near = (actual: { r: number; g: number; b: number }, expected: { r: number; g: number; b: number }) =>
  Math.abs(actual.r - expected.r) < 60 && Math.abs(actual.g - expected.g) < 60 && Math.abs(actual.b - expected.b) < 60;
