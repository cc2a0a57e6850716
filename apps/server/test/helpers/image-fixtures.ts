import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
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
export const HALVES_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="20" height="20" fill="#f00"/><rect x="20" width="20" height="20" fill="#00f"/></svg>';

/** A one-page PDF 400×200 pt, red then blue, written by hand with a correct cross-reference table. */
export function halvesPdf(): Buffer {
  const content = '1 0 0 rg 0 0 200 200 re f 0 0 1 rg 200 0 200 200 re f';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A two-second WebM, blue throughout, made with ffmpeg (small and fast to encode). */
export async function blueWebm(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'webm-'));
  try {
    const out = path.join(dir, 'blue.webm');
    const result = spawnSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=blue:s=160x120:d=2:r=5', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-y', out]);
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

/** The colour of the thumbnail's pixel at a fraction of its width and height. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (Math.floor(y * (info.height - 1)) * info.width + Math.floor(x * (info.width - 1))) * info.channels;
  return { r: data[offset] as number, g: data[offset + 1] as number, b: data[offset + 2] as number };
}

/** Whether a colour is near another (lossy formats shift them a little). */
export const near = (actual: { r: number; g: number; b: number }, expected: { r: number; g: number; b: number }) =>
  Math.abs(actual.r - expected.r) < 60 && Math.abs(actual.g - expected.g) < 60 && Math.abs(actual.b - expected.b) < 60;
