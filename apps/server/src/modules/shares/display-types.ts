import { downloadContentType } from '../../lib/content-types.ts';

/** Raster images every supported browser decodes in an <img> (the web viewer's SAFE_RASTER). */
const SAFE_RASTER = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

/**
 * Types the web viewer reads as text (its renderer's TEXT_TYPES, SVG among them): served as
 * text/plain, so HTML, SVG or script bytes are only ever characters, never a page or an image
 * that runs on our origin.
 */
const TEXT_TYPES =
  /^(text\/|image\/svg\+xml$|application\/(json|xml|javascript|x-javascript|ecmascript|x-sh|x-yaml|yaml|toml|sql|x-httpd-php)$|application\/[a-z.+-]*\+(json|xml)$)/;

const TEXT_PLAIN = 'text/plain; charset=utf-8';

/** Source, data and Markdown files the web viewer shows as text whatever type was declared (its renderer's lists). */
const TEXT_EXTENSIONS = new Set(
  (
    'md markdown mdown mkd txt log csv tsv json xml yaml yml toml ini conf cfg env html htm css scss svg js mjs cjs jsx ts tsx ' +
    'py rb go rs java kt c h cpp hpp cs php sh bash zsh sql swift lua pl r dart vue svelte gitignore dockerfile'
  ).split(' '),
);

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot >= 0 ? name.slice(dot + 1) : name).toLowerCase();
}

/**
 * The Content-Type a file is displayed with through a link that only shows (view-only), or
 * null when the viewer cannot display it and only a download would do. Raster images, PDF,
 * video and audio keep their inert type (lib/content-types.ts); text, by its type or its
 * name's extension as the viewer chooses, is plain text.
 */
export function displayContentType(mimetype: string, name: string): string | null {
  const type = mimetype.toLowerCase().split(';')[0]?.trim() ?? '';
  if (SAFE_RASTER.has(type)) return type;
  if (type === 'application/pdf' || type.startsWith('video/') || type.startsWith('audio/')) {
    const inert = downloadContentType(type);
    return inert === type ? type : null;
  }
  if (TEXT_TYPES.test(type) || TEXT_EXTENSIONS.has(extensionOf(name))) return TEXT_PLAIN;
  return null;
}
