// @vitest-environment jsdom
import { act, cleanup, waitFor } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '@cloudvault/contract/folders';
import { FALLBACK_UPLOAD_CONFIG } from '../../hooks/use-upload-config';
import { renderWithProviders } from '../../testing/render-with-providers';
import { startUploads } from './upload-store';

/** The texts of the toasts showing now, newest first. */
const toastTexts = () => [...document.querySelectorAll('[data-rht-toaster] [role="status"]')].map((element) => element.textContent);

beforeEach(() => {
  // react-hot-toast asks for prefers-reduced-motion; jsdom has no media queries.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

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
      { ensureFolder, queue: { add }, listNames: async () => [] },
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
    renderWithProviders(<Toaster />);
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
      { ensureFolder, queue: { add }, listNames: async () => [] },
    );
    await waitFor(() =>
      expect(toastTexts()).toEqual(['Failed to create folder', 'huge.iso is too large. Maximum file size for Free plan is 102.4 MB.']),
    );
    expect(add.mock.calls[0]![0].map((item: { file: File }) => item.file.name)).toEqual(['fine.txt']);
  });

  it('asks about each file whose folder holds its name, sends the choice, skips what was skipped and sends the rest with fail', async () => {
    const ensureFolder = vi.fn(async (name: string, parentId: string | null) => ({ ...folder('docs', name, parentId), existed: true }));
    const add = vi.fn();
    const listNames = vi.fn(async (folderId: string | null) => (folderId === 'target' ? ['a.txt', 'B.TXT'] : ['old.txt']));
    const asked: Array<[string, string, number]> = [];
    const answers = [
      { choice: 'keep-both', applyToAll: false },
      { choice: 'skip', applyToAll: false },
      { choice: 'replace', applyToAll: false },
    ] as const;
    await startUploads(
      {
        directories: [['Docs']],
        files: [
          { file: new File(['1'], 'a.txt'), directory: [] },
          { file: new File(['2'], 'b.txt'), directory: [] },
          { file: new File(['3'], 'new.txt'), directory: [] },
          { file: new File(['4'], 'old.txt'), directory: ['Docs'] },
        ],
      },
      'target',
      FALLBACK_UPLOAD_CONFIG,
      {
        ensureFolder,
        queue: { add },
        listNames,
        folderName: async () => 'Target',
        ask: async (clash, left) => {
          asked.push([clash.name, clash.folderName, left]);
          return answers[asked.length - 1]!;
        },
      },
    );
    expect(asked).toEqual([
      ['a.txt', 'Target', 3],
      ['b.txt', 'Target', 2],
      ['old.txt', 'Docs', 1],
    ]);
    expect(
      add.mock.calls[0]![0].map((item: { file: File; folderId: string; conflict: string }) => [
        item.file.name,
        item.folderId,
        item.conflict,
      ]),
    ).toEqual([
      ['a.txt', 'target', 'keep-both'],
      ['new.txt', 'target', 'fail'],
      ['old.txt', 'docs', 'replace'],
    ]);
  });

  it('lists only folders that were there before: a folder the batch made holds nothing to clash with', async () => {
    const ensureFolder = vi.fn(async (name: string, parentId: string | null) => ({ ...folder('fresh', name, parentId), existed: false }));
    const listNames = vi.fn(async () => ['inside.txt']);
    const ask = vi.fn();
    const add = vi.fn();
    await startUploads(
      { directories: [['Fresh']], files: [{ file: new File(['x'], 'inside.txt'), directory: ['Fresh'] }] },
      null,
      FALLBACK_UPLOAD_CONFIG,
      { ensureFolder, queue: { add }, listNames, ask },
    );
    expect(listNames).not.toHaveBeenCalled();
    expect(ask).not.toHaveBeenCalled();
    expect(add.mock.calls[0]![0]).toMatchObject([{ folderId: 'fresh', conflict: 'fail' }]);
  });
});
