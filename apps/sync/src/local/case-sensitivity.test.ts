import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectCaseInsensitive } from './case-sensitivity.ts';

let root: string;
afterEach(() => rm(root, { recursive: true, force: true }));

describe('detectCaseInsensitive', () => {
  it("answers this disk's behaviour and leaves no probe behind", async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cv-case-'));
    // Linux's own filesystems tell case apart; macOS and Windows by default do not.
    expect(await detectCaseInsensitive(root)).toBe(process.platform !== 'linux');
    expect(await readdir(path.join(root, '.cloudvault', 'tmp'))).toEqual([]);
  });
});
