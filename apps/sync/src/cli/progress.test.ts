import { describe, expect, it } from 'vitest';
import { createProgress, formatBytes, progressLine } from './progress.ts';

describe('progress', () => {
  it('writes counts, bytes, rate and time left on one line', () => {
    expect(progressLine({ doneFiles: 12, files: 340, doneBytes: 48e6, bytes: 1.2e9, elapsedMs: 1548 })).toBe(
      '12/340 files, 48 MB of 1.2 GB, 31 MB/s, 38 s left',
    );
    expect(formatBytes(2_100_000)).toBe('2.1 MB');
    expect(formatBytes(3)).toBe('3 B');
  });

  it('rewrites one line on a terminal and logs one line per action elsewhere', () => {
    const written: string[] = [];
    const stream = (isTTY: boolean) => ({ isTTY, write: (text: string) => written.push(text) }) as unknown as NodeJS.WriteStream;
    const log = createProgress(stream(false), () => 0);
    log.start(2, 10);
    log.done('upload  a (5 B)', 5);
    log.finish('In sync: 1 change made.');
    expect(written).toEqual(['upload  a (5 B)\n', 'In sync: 1 change made.\n']);
    written.length = 0;
    let now = 0;
    const live = createProgress(stream(true), () => now);
    live.start(2, 10);
    now = 1000;
    live.done('upload  a (5 B)', 5);
    expect(written.at(-1)).toBe('\r\x1b[2K1/2 files, 5 B of 10 B, 5 B/s, 1 s left');
  });
});
