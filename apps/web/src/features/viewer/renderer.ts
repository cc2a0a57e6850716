import { hasThumbnail, type ViewableFile } from '../../lib/file-source';

/** How the viewer shows a file. */
export type Renderer = 'image' | 'pdf' | 'video' | 'audio' | 'markdown' | 'text' | 'card';

/** Text, Markdown and code are read up to this many bytes (one Range request) and say so beyond. */
export const TEXT_PREVIEW_BYTES = 512 * 1024;

/**
 * Raster formats every browser we support decodes, so the original may be shown as an
 * <img>. SVG is not here: it is a document that can carry script, so it is only ever shown
 * as its raster thumbnail; HEIC, TIFF and the like have no decoder in most browsers.
 */
const SAFE_RASTER = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdown', 'mkd']);
/** Source and data files shown as plain text whatever type the uploader declared. */
const TEXT_EXTENSIONS = new Set([
  'txt',
  'log',
  'csv',
  'tsv',
  'json',
  'xml',
  'yaml',
  'yml',
  'toml',
  'ini',
  'conf',
  'cfg',
  'env',
  'html',
  'htm',
  'css',
  'scss',
  'svg',
  'js',
  'mjs',
  'cjs',
  'jsx',
  'ts',
  'tsx',
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'c',
  'h',
  'cpp',
  'hpp',
  'cs',
  'php',
  'sh',
  'bash',
  'zsh',
  'sql',
  'swift',
  'lua',
  'pl',
  'r',
  'dart',
  'vue',
  'svelte',
  'gitignore',
  'dockerfile',
]);
const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|x-javascript|ecmascript|x-sh|x-yaml|yaml|toml|sql|x-httpd-php)$|application\/[a-z.+-]*\+(json|xml)$)/;

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : name.toLowerCase();
}

/** Whether the original image may be put in an <img> as it is. */
export function isSafeRaster(mimetype: string): boolean {
  return SAFE_RASTER.has(mimetype.toLowerCase());
}

/**
 * The renderer for a file. Images: the original when it is a safe raster, else the
 * server's raster thumbnail when it has one (SVG, HEIC), else the card. Nothing is ever
 * shown as a page of ours: HTML, SVG and XML are text at most.
 */
export function chooseRenderer(file: Pick<ViewableFile, 'mimetype' | 'originalName' | 'preview'>): Renderer {
  const type = file.mimetype.toLowerCase().split(';')[0]?.trim() ?? '';
  const extension = extensionOf(file.originalName);
  if (type.startsWith('image/')) {
    if (isSafeRaster(type) || hasThumbnail(file)) return 'image';
    return type === 'image/svg+xml' ? 'text' : 'card';
  }
  if (type === 'application/pdf' || extension === 'pdf') return 'pdf';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'text/markdown' || type === 'text/x-markdown' || MARKDOWN_EXTENSIONS.has(extension)) return 'markdown';
  if (TEXT_TYPES.test(type) || TEXT_EXTENSIONS.has(extension)) return 'text';
  return 'card';
}
