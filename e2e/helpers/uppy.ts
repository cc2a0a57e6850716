import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Uppy's core and tus plugin as one classic script that puts `{ Uppy, Tus }` on
 * `window.uppyForTests`. Built from the devDependencies at test time: the app ships
 * neither, a page of ours gets them injected to show that Uppy can upload to us.
 */
export async function uppyBundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "import Uppy from '@uppy/core'; import Tus from '@uppy/tus'; window.uppyForTests = { Uppy, Tus };",
      resolveDir: repositoryRoot,
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
