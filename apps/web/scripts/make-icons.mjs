/**
 * Writes the installable app's icons (public/icons/) from the favicon, the one drawing of the
 * logo: phones ask for 192 and 512 px PNGs, a maskable one whose logo keeps inside the 80 %
 * safe circle a launcher may crop to, and iOS a 180 px apple-touch-icon without transparency.
 * Run once after the logo changes (`node apps/web/scripts/make-icons.mjs`); the PNGs are committed
 * so that a build needs no image library.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
const logo = await readFile(new URL('favicon.svg', `file://${publicDir}`));
/** The logo's own colour behind the maskable icon's margin, so a crop never shows a seam. */
const BRAND = '#3550f0';

async function render(size) {
  return sharp(logo, { density: (72 * size) / 32 })
    .resize(size, size)
    .png()
    .toBuffer();
}

async function write(name, image) {
  await sharp(image).png({ compressionLevel: 9 }).toFile(`${publicDir}icons/${name}`);
}

await write('icon-192.png', await render(192));
await write('icon-512.png', await render(512));
// The maskable icon: the logo at 60 % in the middle of a brand-coloured square.
const inner = 308;
const pad = (512 - inner) / 2;
await write(
  'maskable-512.png',
  await sharp({ create: { width: 512, height: 512, channels: 4, background: BRAND } })
    .composite([{ input: await render(inner), top: pad, left: pad }])
    .png()
    .toBuffer(),
);
// iOS fills transparency with black: the rounded corners go on a brand-coloured square (iOS rounds it itself).
await write(
  'apple-touch-icon.png',
  await sharp(await render(180))
    .flatten({ background: BRAND })
    .toBuffer(),
);
