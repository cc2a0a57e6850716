import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from '../../../lib/api-client';
import { moveAll } from './use-move-to-folder';

const taken = () => new ApiError(409, 'taken', 'NAME_TAKEN', undefined, 'A file named "a.txt" already exists there');

describe('moveAll', () => {
  afterEach(() => vi.restoreAllMocks());

  it('asks about every name the target holds at once, then moves each again with its choice (a folder never replaced)', async () => {
    const sent: Array<[string, unknown]> = [];
    vi.spyOn(api, 'patch').mockImplementation(async (path: string, body?: unknown) => {
      sent.push([path, body]);
      if (!(body as { conflict?: string }).conflict && path !== '/files/free') throw taken();
      return {};
    });
    const resolve = vi.fn(async () => ['replace', 'skip', 'keep-both'] as Array<'replace' | 'keep-both' | 'skip'>);
    const names: Record<string, string> = { a: 'a.txt', b: 'b.txt', p: 'Photos', free: 'free.txt' };
    const refs = [
      { kind: 'file' as const, id: 'a' },
      { kind: 'file' as const, id: 'free' },
      { kind: 'file' as const, id: 'b' },
      { kind: 'folder' as const, id: 'p' },
    ];
    const { moved, error } = await moveAll(refs, 'docs', 'Docs', { resolve, nameOf: (ref) => names[ref.id]! });
    expect(resolve).toHaveBeenCalledWith([
      { name: 'a.txt', folderName: 'Docs', canReplace: true },
      { name: 'b.txt', folderName: 'Docs', canReplace: true },
      { name: 'Photos', folderName: 'Docs', canReplace: false },
    ]);
    expect(sent.slice(4)).toEqual([
      ['/files/a', { folderId: 'docs', conflict: 'replace' }],
      ['/user/folders/p', { parentId: 'docs', conflict: 'keep-both' }],
    ]);
    expect(moved.map((ref) => ref.id)).toEqual(['free', 'a', 'p']);
    expect(error).toBeNull();
  });

  it('without a way to ask, answers the refusal as it was', async () => {
    vi.spyOn(api, 'patch').mockRejectedValue(taken());
    const { moved, error } = await moveAll([{ kind: 'file', id: 'a' }], null, 'My Files', undefined);
    expect(moved).toEqual([]);
    expect(error).toBeInstanceOf(ApiError);
  });
});
