// @vitest-environment jsdom
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useOfflineCopy } from './use-offline-copy';

const state = vi.hoisted(() => ({
  copies: { stored: new Map<string, string>(), saving: new Map<string, number>() },
  offline: false,
}));
const keepOffline = vi.hoisted(() => vi.fn(() => Promise.resolve()));

vi.mock('../lib/offline-files', () => ({
  keepOffline,
  loadOfflineCopies: () => {},
  offlineCopies: () => state.copies,
  onOfflineCopiesChange: () => () => {},
}));
vi.mock('./use-session', () => ({ useSession: () => ({ user: { id: 'u1' } }) }));
vi.mock('./use-offline', () => ({ useOffline: () => state.offline }));

const file = { id: 'f1', contentTag: 'v2', mimetype: 'image/png' };

beforeEach(() => {
  keepOffline.mockClear();
  state.offline = false;
  state.copies = { stored: new Map([['f1', 'v1']]), saving: new Map() };
});
afterEach(cleanup);

describe('useOfflineCopy', () => {
  it('fetches the copy again when the listing names newer content than it holds', () => {
    const { result } = renderHook(() => useOfflineCopy(file));
    expect(result.current).toEqual({ kept: true, stale: true, saving: null });
    expect(keepOffline).toHaveBeenCalledWith(file);
  });

  it('keeps the older copy while offline, and leaves a current one alone', () => {
    state.offline = true;
    renderHook(() => useOfflineCopy(file));
    state.offline = false;
    renderHook(() => useOfflineCopy({ ...file, contentTag: 'v1' }));
    expect(keepOffline).not.toHaveBeenCalled();
  });

  it('says a file without a copy is not kept, and how far a save is', () => {
    state.copies = { stored: new Map(), saving: new Map([['f1', 0.4]]) };
    const { result } = renderHook(() => useOfflineCopy(file));
    expect(result.current).toEqual({ kept: false, stale: false, saving: 0.4 });
    expect(keepOffline).not.toHaveBeenCalled();
  });
});
