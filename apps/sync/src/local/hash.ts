import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Below this a file is read in one call: cheaper than a stream's setup for the many small files of a tree. */
const READ_WHOLE_BELOW = 1024 * 1024;

/**
 * Lowercase hex SHA-256 of a file's content, streamed so a file of any size takes a few
 * buffers of memory. `sizeHint` (the size a scan just saw) picks the small-file path.
 */
export async function hashFile(absPath: string, sizeHint = Number.POSITIVE_INFINITY): Promise<string> {
  const hash = createHash('sha256');
  if (sizeHint < READ_WHOLE_BELOW) return hash.update(await readFile(absPath)).digest('hex');
  for await (const chunk of createReadStream(absPath, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
