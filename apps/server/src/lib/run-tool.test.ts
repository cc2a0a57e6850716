import { describe, expect, it } from 'vitest';
import { runTool, ToolError, toolAvailable } from './run-tool.ts';

describe('runTool', () => {
  it('resolves on exit 0 and rejects with the start of stderr otherwise', async () => {
    await expect(runTool('sh', ['-c', 'exit 0'], 5000)).resolves.toBeUndefined();
    const failure = runTool('sh', ['-c', 'head -c 100000 /dev/zero | tr "\\0" x >&2; exit 3'], 5000);
    await expect(failure).rejects.toThrow(ToolError);
    // 100 KB written, at most 500 characters kept in the message.
    await expect(failure).rejects.toThrow(/^sh exited with 3: x{500}$/);
  });

  it('kills a program that outlives its time', async () => {
    await expect(runTool('sleep', ['30'], 200)).rejects.toThrow(/sleep stopped after 200 ms/);
  });

  it('tells whether a program is installed', async () => {
    expect(await toolAvailable('sh', ['-c', 'true'])).toBe(true);
    expect(await toolAvailable('no-such-program-here', ['--version'])).toBe(false);
  });
});
