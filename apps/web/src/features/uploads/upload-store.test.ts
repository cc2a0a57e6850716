import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '@cloudvault/contract/folders';
import { FALLBACK_UPLOAD_CONFIG } from '../../hooks/use-upload-config';
import { startUploads } from './upload-store';

vi.mock('react-hot-toast', () => ({ default: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }));
const toast = (await import('react-hot-toast')).default as unknown as { error: ReturnType<typeof vi.fn> };

afterEach(() => vi.clearAllMocks());

const folder = (id: string, name: string, parentId: string | null): Folder => ({
  id,
  name,
  parentId,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

describe('startUploads', () => {
  it('creates the folders of a dropped tree parents first, then queues each file into its folder', async () => {
    let next = 0;
    const ensureFolder = vi.fn(async (name: string, parentId: string | null) => folder(`f${(next += 1)}`, name, parentId));
    const add = vi.fn();
    const file = (name: string) => new File([name], name);
    const created = await startUploads(
      {
        directories: [['Photos'], ['Photos', '2024'], ['Photos', 'Empty']],
        files: [
          { file: file('a.jpg'), directory: ['Photos'] },
          { file: file('b.jpg'), directory: ['Photos', '2024'] },
          { file: file('top.txt'), directory: [] },
        ],
      },
      'target',
      FALLBACK_UPLOAD_CONFIG,
      { ensureFolder, queue: { add } },
    );
    expect(created).toBe(3);
    expect(ensureFolder.mock.calls).toEqual([
      ['Photos', 'target'],
      ['2024', 'f1'],
      ['Empty', 'f1'],
    ]);
    expect(add).toHaveBeenCalledTimes(1);
    expect(add.mock.calls[0]![0].map((item: { file: File; folderId: string }) => [item.file.name, item.folderId])).toEqual([
      ['a.jpg', 'f1'],
      ['b.jpg', 'f2'],
      ['top.txt', 'target'],
    ]);
  });

  it("refuses files over the plan's limit with the product's text and skips a folder that could not be made", async () => {
    const ensureFolder = vi.fn(async () => {
      throw new Error('offline');
    });
    const add = vi.fn();
    const big = new File(['x'], 'huge.iso');
    Object.defineProperty(big, 'size', { value: 107374183 });
    await startUploads(
      {
        directories: [['Broken']],
        files: [
          { file: big, directory: [] },
          { file: new File(['ok'], 'inside.txt'), directory: ['Broken'] },
          { file: new File(['ok'], 'fine.txt'), directory: [] },
        ],
      },
      null,
      FALLBACK_UPLOAD_CONFIG,
      { ensureFolder, queue: { add } },
    );
    expect(toast.error).toHaveBeenCalledWith('huge.iso is too large. Maximum file size for Free plan is 102.4 MB.');
    expect(toast.error).toHaveBeenCalledWith('Failed to create folder');
    expect(add.mock.calls[0]![0].map((item: { file: File }) => item.file.name)).toEqual(['fine.txt']);
  });
});
