import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The English strings every page needs, bundled with the entry. */
export const FIRST_LOAD_ID = 'virtual:english/first-load';
/** The rest (the signed-in app, sharing, the operator console): a chunk loaded with those pages. */
export const REST_ID = 'virtual:english/rest';

/**
 * Splits src/locales/en.json by top-level section into two modules, so that a visitor's first
 * visit does not download the strings of pages it cannot reach (docs/decisions/0031-web-delivery.md).
 * The file itself stays whole: the reference every other language is checked against.
 * Under test (vitest's mode), every section is in the first-load module and the rest is empty,
 * so components render in English without waiting for a chunk.
 */
export function englishSections(firstLoadSections: readonly string[]): Plugin {
  // From this file, not the config's root: vitest's unit project runs from the repository root.
  const file = fileURLToPath(new URL('../src/locales/en.json', import.meta.url));
  let underTest = false;
  return {
    name: 'cloudvault-english-sections',
    configResolved(config) {
      underTest = config.mode === 'test';
    },
    resolveId(id) {
      return id === FIRST_LOAD_ID || id === REST_ID ? `\0${id}` : undefined;
    },
    async load(id) {
      if (id !== `\0${FIRST_LOAD_ID}` && id !== `\0${REST_ID}`) return undefined;
      this.addWatchFile(file);
      const english = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const firstLoad = id === `\0${FIRST_LOAD_ID}`;
      const picked = Object.entries(english).filter(([section]) =>
        underTest ? firstLoad : firstLoadSections.includes(section) === firstLoad,
      );
      return `export default ${JSON.stringify(Object.fromEntries(picked))};`;
    },
  };
}
