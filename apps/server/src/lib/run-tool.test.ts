import { describe, expect, it } from 'vitest';
import { limitedCommand, runTool, ToolError, toolAvailable } from './run-tool.ts';

describe('runTool', () => {
  it('resolves on exit 0 and rejects with the start of stderr otherwise', async () => {
    await expect(runTool('sh', ['-c', 'echo done; exit 0'], 5000)).resolves.toBe('done\n');
    const failure = runTool('sh', ['-c', 'head -c 100000 /dev/zero | tr "\\0" x >&2; exit 3'], 5000);
    await expect(failure).rejects.toThrow(ToolError);
    // 100 KB written, at most 500 characters kept in the message.
    await expect(failure).rejects.toThrow(/^sh exited with 3: x{500}$/);
  });

  it('kills a program that outlives its time', async () => {
    await expect(runTool('sleep', ['30'], 200)).rejects.toThrow(/sleep stopped after 200 ms/);
  });

  it('holds a program to its address space: an allocation past it fails', async () => {
    const allocate = ['-c', 'bytearray(256 * 1024 * 1024)'];
    await expect(runTool('python3', allocate, { timeoutMs: 10_000 })).resolves.toBe('');
    await expect(
      runTool('python3', allocate, { timeoutMs: 10_000, limits: { addressSpaceBytes: 128 * 1024 ** 2, cpuSeconds: 10 } }),
    ).rejects.toThrow(/MemoryError/);
  });

  it('kills a program past its CPU time, long before the wall clock would', async () => {
    const started = Date.now();
    await expect(
      runTool('sh', ['-c', 'while :; do :; done'], { timeoutMs: 30_000, limits: { addressSpaceBytes: 256 * 1024 ** 2, cpuSeconds: 1 } }),
    ).rejects.toThrow(/killed by SIG(KILL|XCPU)/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('runs a limited program through prlimit, its arguments untouched', () => {
    expect(limitedCommand('ffmpeg', ['-i', 'a b'], { addressSpaceBytes: 1024, cpuSeconds: 2.5 })).toEqual([
      'prlimit',
      ['--as=1024', '--cpu=3', '--', 'ffmpeg', '-i', 'a b'],
    ]);
    expect(limitedCommand('ffmpeg', ['-version'], undefined)).toEqual(['ffmpeg', ['-version']]);
  });

  it('passes on none of the server environment but PATH', async () => {
    process.env.RUN_TOOL_SECRET = 'hunter2';
    try {
      expect(await runTool('sh', ['-c', 'echo "[$RUN_TOOL_SECRET][$EXTRA]"'], { timeoutMs: 5000, env: { EXTRA: 'given' } })).toBe(
        '[][given]\n',
      );
    } finally {
      delete process.env.RUN_TOOL_SECRET;
    }
  });

  it('tells whether a program is installed', async () => {
    expect(await toolAvailable('sh', ['-c', 'true'])).toBe(true);
    expect(await toolAvailable('no-such-program-here', ['--version'])).toBe(false);
  });
});
