// Shrinks the server bundle's source map to what a stack trace needs: the source line of each
// position in our own code. Node decodes a map into about 95 bytes per segment the first time
// it maps a stack trace; esbuild writes one segment per token, 170,000 for the bundle, most of
// them in the TypeBox and Kysely code bundled with it (16 MB once decoded). Kept: one segment
// per generated line and original line of our sources, and one unmapped segment where the
// packages' code starts, so a frame there keeps its bundle position instead of borrowing the
// line of our code before it (Node looks up the last segment at or before a position).
import { readFileSync, writeFileSync } from 'node:fs';
import { decode, encode } from '@jridgewell/sourcemap-codec';

/** Rewrites the map at `mapPath` keeping only the segments of our sources' line changes. */
export function trimSourceMap(mapPath) {
  const map = JSON.parse(readFileSync(mapPath, 'utf8'));
  const ours = map.sources.map((source) => !source.includes('node_modules/'));
  let lastKept = '';
  const lines = decode(map.mappings).map((segments, generatedLine) =>
    segments
      .filter((segment) => {
        const mapped = segment.length >= 4 && ours[segment[1]];
        const key = mapped ? `${generatedLine}:${segment[1]}:${segment[2]}` : 'unmapped';
        if (key === lastKept) return false;
        lastKept = key;
        return true;
      })
      .map((segment) => (segment.length >= 4 && ours[segment[1]] ? segment : [segment[0]])),
  );
  writeFileSync(mapPath, JSON.stringify({ ...map, mappings: encode(lines) }));
}
