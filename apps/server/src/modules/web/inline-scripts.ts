import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * CSP source expressions ('sha256-…') for the inline scripts of the built index.html: the
 * theme script the build puts there so it is no render-blocking request
 * (apps/web/vite-plugins/inline-head.ts). Read once at start-up; nothing else inline may run.
 */
export function inlineScriptHashes(distDir: string | undefined): string[] {
  const file = distDir === undefined ? undefined : path.join(distDir, 'index.html');
  if (file === undefined || !existsSync(file)) return [];
  const html = readFileSync(file, 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  );
}
