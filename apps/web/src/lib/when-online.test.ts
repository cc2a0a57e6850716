// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenOnline } from './when-online';

function setOnline(online: boolean): void {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
}

afterEach(() => vi.restoreAllMocks());

describe('whenOnline', () => {
  it('resolves at once with a network, without saying it waits', async () => {
    setOnline(true);
    const waiting = vi.fn();
    await whenOnline(new AbortController().signal, waiting);
    expect(waiting).not.toHaveBeenCalled();
  });

  it('waits offline until the browser is online again', async () => {
    setOnline(false);
    const waiting = vi.fn();
    let settled = false;
    const done = whenOnline(new AbortController().signal, waiting).then(() => (settled = true));
    await Promise.resolve();
    expect(waiting).toHaveBeenCalledWith(true);
    expect(settled).toBe(false);
    window.dispatchEvent(new Event('online'));
    await done;
    expect(settled).toBe(true);
  });

  it('rejects with an AbortError when the upload is stopped while it waits', async () => {
    setOnline(false);
    const controller = new AbortController();
    const done = whenOnline(controller.signal);
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
  });
});
