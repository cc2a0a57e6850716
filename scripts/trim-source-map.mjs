// Shrinks the server bundle's source map to what a stack trace needs: the source line of each
// position in our own code. Node decodes a map into about 95 bytes per segment the first time
// it maps a stack trace; esbuild writes one segment per token, 170,000 for the bundle, most of
// them in the TypeBox and Kysely code bundled with it (16 MB once decoded). Kept: one segment
// per generated line and original line of our sources, and one unmapped segment where the
// packages' code starts, so a frame there keeps its bundle position instead of borrowing the
// line of our code before it (Node looks up the last segment at or before a position).
import { readFileSync, writeFileSync } from 'node:fs';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeSegment(text) {
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return fields;
}

function encodeSegment(fields) {
  let text = '';
  for (const field of fields) {
    let value = field < 0 ? (-field << 1) | 1 : field << 1;
    do {
      let digit = value & 31;
      value >>>= 5;
      if (value > 0) digit |= 32;
      text += BASE64[digit];
    } while (value > 0);
  }
  return text;
}

/** Rewrites the map at `mapPath` keeping only the segments of our sources' line changes. */
export function trimSourceMap(mapPath) {
  const map = JSON.parse(readFileSync(mapPath, 'utf8'));
  const ours = map.sources.map((source) => !source.includes('node_modules/'));
  // Absolute values as decoded, and the last ones written (segments are deltas of them).
  const read = { source: 0, line: 0, column: 0, name: 0 };
  const written = { source: 0, line: 0, column: 0, name: 0 };
  let lastKept = '';
  const lines = map.mappings.split(';').map((line, generatedLine) => {
    let generatedColumn = 0;
    let writtenColumn = 0;
    const kept = [];
    for (const text of line.split(',')) {
      if (!text) continue;
      const fields = decodeSegment(text);
      generatedColumn += fields[0];
      if (fields.length >= 4) {
        read.source += fields[1];
        read.line += fields[2];
        read.column += fields[3];
      }
      if (fields.length === 5) read.name += fields[4];
      const mapped = fields.length >= 4 && ours[read.source];
      const key = mapped ? `${generatedLine}:${read.source}:${read.line}` : 'unmapped';
      if (key === lastKept) continue;
      lastKept = key;
      const segment = [generatedColumn - writtenColumn];
      writtenColumn = generatedColumn;
      if (mapped) {
        segment.push(read.source - written.source, read.line - written.line, read.column - written.column);
        Object.assign(written, { source: read.source, line: read.line, column: read.column });
        if (fields.length === 5) {
          segment.push(read.name - written.name);
          written.name = read.name;
        }
      }
      kept.push(encodeSegment(segment));
    }
    return kept.join(',');
  });
  writeFileSync(mapPath, JSON.stringify({ ...map, mappings: lines.join(';') }));
}
