import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

const THEME_SCRIPT_TAG = '<script src="/theme.js"></script>';

/**
 * Puts the two things every page needs before its first paint into index.html itself, so
 * neither is a render-blocking request (docs/decisions/0031-web-delivery.md): the theme
 * script (public/theme.js; the server's CSP allows it by its sha256, modules/web/inline-scripts.ts)
 * and the app's stylesheet (the CSP allows inline styles). Build only: the dev server keeps
 * both as files.
 */
export function inlineHead(): Plugin {
  let publicDir = '';
  return {
    name: 'cloudvault-inline-head',
    apply: 'build',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, { bundle }) {
        if (!html.includes(THEME_SCRIPT_TAG)) throw new Error(`index.html no longer loads the theme with ${THEME_SCRIPT_TAG}`);
        const theme = (await readFile(path.join(publicDir, 'theme.js'), 'utf8')).trim();
        let inlined = html.replace(THEME_SCRIPT_TAG, () => `<script>${theme}</script>`);
        for (const asset of Object.values(bundle ?? {})) {
          if (asset.type !== 'asset' || !asset.fileName.endsWith('.css')) continue;
          const link = new RegExp(`<link rel="stylesheet"[^>]*href="/${asset.fileName}"[^>]*>`);
          inlined = inlined.replace(link, () => `<style>${String(asset.source)}</style>`);
        }
        return inlined;
      },
    },
  };
}
