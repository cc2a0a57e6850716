import { createReadStream, createWriteStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text the browser downloads; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

/**
 * Writes `.br` and `.gz` beside every text file of the build, at the highest levels, so the
 * server sends the smallest encoding the browser accepts without compressing on each
 * request (@fastify/static `preCompressed`; docs/decisions/0031-web-delivery.md).
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'cloudvault-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries.filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name));
      await Promise.all(
        files.map(async (entry) => {
          const file = path.join(entry.parentPath, entry.name);
          await pipeline(
            createReadStream(file),
            createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
            createWriteStream(`${file}.br`),
          );
          await pipeline(createReadStream(file), createGzip({ level: constants.Z_BEST_COMPRESSION }), createWriteStream(`${file}.gz`));
        }),
      );
    },
  };
}
