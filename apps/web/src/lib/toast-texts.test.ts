import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The guard behind "every toast follows the chosen language" (issue 36): a toast's text is
 * never a literal written in the code. notify.* takes a locale key (typed: a key that is not
 * in en.json does not compile) and translates it when shown; a direct react-hot-toast call must
 * at least pass something computed, never a string or template literal.
 */
const SOURCES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * Where react-hot-toast may still be called directly: notify itself and the stack that shows
 * its toasts. Every other toast goes through notify, so it follows the chosen language.
 */
const DIRECT_TOAST_ALLOWED = ['lib/notify.tsx', 'app/layouts/'];

const IMPORTS_REACT_HOT_TOAST = /\bfrom\s+['"]react-hot-toast['"]/;

/** `toast('…')`, `toast.error(\`…\`)`, `notify.success(\`…\`)`: a text (or a key) spelled out as a template. */
const LITERAL_TOAST = /\btoast(?:\.(?:success|error|loading|custom))?\(\s*['"`]|\bnotify\.\w+\(\s*`/g;

function literalToasts(source: string): string[] {
  return [...source.matchAll(LITERAL_TOAST)].map((match) => source.slice(match.index, source.indexOf('\n', match.index)).trim());
}

describe('toast texts', () => {
  it('finds a literal handed to a toast', () => {
    expect(literalToasts("toast.success('Saved');\nnotify.error(`x.${y}`);\ntoast(t('a'));\nnotify.success('settings.updated');")).toEqual([
      "toast.success('Saved');",
      'notify.error(`x.${y}`);',
    ]);
  });

  it('come from the locale files in every source of the web app', () => {
    const offenders = sourceFiles(SOURCES).flatMap((file) =>
      literalToasts(readFileSync(file, 'utf8')).map((call) => `${path.relative(SOURCES, file)}: ${call}`),
    );
    expect(offenders).toEqual([]);
  });

  it('go through notify everywhere else', () => {
    const direct = sourceFiles(SOURCES)
      .map((file) => path.relative(SOURCES, file).split(path.sep).join('/'))
      .filter((file) => !DIRECT_TOAST_ALLOWED.some((allowed) => file.startsWith(allowed)))
      .filter((file) => IMPORTS_REACT_HOT_TOAST.test(readFileSync(path.join(SOURCES, file), 'utf8')));
    expect(direct).toEqual([]);
  });
});
