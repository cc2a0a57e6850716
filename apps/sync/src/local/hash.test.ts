import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashFile } from './hash.ts';

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('hashFile', () => {
  it('gives the SHA-256 of small and streamed files alike', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cv-hash-'));
    for (const size of [0, 10, 3 * 1024 * 1024 + 7]) {
      const content = randomBytes(size);
      const file = path.join(dir, `f${size}`);
      await writeFile(file, content);
      const expected = createHash('sha256').update(content).digest('hex');
      expect(await hashFile(file, size)).toBe(expected);
      expect(await hashFile(file)).toBe(expected);
    }
  });
});
