import { lookup } from 'mime-types';
import type { FilePreview } from '@cloudvault/contract/thumbnails';

export type FileCategory = 'image' | 'video' | 'audio' | 'document' | 'archive' | 'other';

const GENERIC = 'application/octet-stream';

/** The declared type when it says something, else one from the extension, else generic. */
export function resolveMimetype(declared: string | undefined, fileName: string): string {
  const clean = declared?.split(';')[0]?.trim().toLowerCase();
  if (clean && clean !== GENERIC && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(clean)) return clean;
  return lookup(fileName) || GENERIC;
}

const DOCUMENT_PATTERNS = [/^text\//, /pdf/, /msword|wordprocessing|opendocument\.text|rtf/, /sheet|excel|csv/, /presentation|powerpoint/];

/** The category of docs/product.md#file-categories, kept for icons and usage counters. */
export function categorize(mimetype: string): FileCategory {
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (/zip|rar|x-7z|x-tar|gzip|x-bzip/.test(mimetype)) return 'archive';
  if (DOCUMENT_PATTERNS.some((pattern) => pattern.test(mimetype))) return 'document';
  return 'other';
}

/** The image types with a thumbnail: what sharp's prebuilt libvips decodes, and SVG (rasterised). */
export const THUMBNAILED_IMAGES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/tiff',
  'image/svg+xml',
]);

/**
 * FileItem.preview (contract/thumbnails.ts). The listing entries compute the same in SQL
 * (migration 2026-11-24-16-thumbnails); json-listing.test.ts compares the two.
 */
export function previewOf(mimetype: string): FilePreview {
  if (THUMBNAILED_IMAGES.has(mimetype)) return 'image';
  if (mimetype === 'application/pdf') return 'pdf';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (mimetype.startsWith('text/') || mimetype === 'application/json') return 'text';
  return null;
}

/** FileItem.contentTag: changes with the bytes, so a thumbnail URL carrying it does too. */
export const contentTagOf = (sha256: string): string => sha256.slice(0, 16);

/**
 * Types a browser only ever displays as media or plain data. Anything else (HTML, SVG,
 * XML, JavaScript, unknown) is served as application/octet-stream, so uploaded bytes
 * can never run as a page on our origin even if the attachment disposition were ignored.
 */
const INERT_TYPES =
  /^(image\/(png|jpeg|gif|webp|avif|bmp|x-icon|heic|heif|tiff)|video\/[a-z0-9.+-]+|audio\/[a-z0-9.+-]+|application\/(pdf|zip|gzip|x-7z-compressed|x-tar|vnd\.rar|json)|text\/(plain|csv))$/;

export function downloadContentType(mimetype: string): string {
  return INERT_TYPES.test(mimetype) ? mimetype : GENERIC;
}
