import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { FileItem } from '@cloudvault/contract/files';
import { driveKeys } from '../../lib/query-keys';
import { fileItem } from './items';
import { addFileToListings, removeFromListings } from './listing-cache';
import type { PagedData } from './listing-pages';

const file = (id: string, originalName: string, size: number): FileItem => ({
  id,
  originalName,
  mimetype: 'text/plain',
  size,
  sizeFormatted: `${size} Bytes`,
  preview: 'text',
  contentTag: 'tag',
  contentHash: 'a'.repeat(64),
  folderId: 'folder-1',
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
});
const sortedKey = (sort: string, order: string) => [...driveKeys.files('folder-1'), 'sorted', sort, order];
const shown = (client: QueryClient, key: readonly unknown[]) =>
  client.getQueryData<PagedData<FileItem>>(key)?.pages.flatMap((page) => page.items.map((item) => item.originalName));

describe('the cached listings of a folder', () => {
  it('take a file that landed into every order, each where that order has it, and the whole listing too', () => {
    const client = new QueryClient();
    const [a, c] = [file('1', 'a.txt', 30), file('2', 'c.txt', 10)];
    client.setQueryData(driveKeys.files('folder-1'), [a, c]);
    client.setQueryData(sortedKey('name', 'asc'), { pages: [{ items: [a, c], nextCursor: null }], pageParams: [null] });
    client.setQueryData(sortedKey('size', 'desc'), { pages: [{ items: [a, c], nextCursor: null }], pageParams: [null] });

    addFileToListings(client, file('3', 'b.txt', 20));
    expect(client.getQueryData<FileItem[]>(driveKeys.files('folder-1'))?.map((entry) => entry.originalName)).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
    ]);
    expect(shown(client, sortedKey('name', 'asc'))).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(shown(client, sortedKey('size', 'desc'))).toEqual(['a.txt', 'b.txt', 'c.txt']);

    removeFromListings(client, fileItem(a));
    expect(client.getQueryData<FileItem[]>(driveKeys.files('folder-1'))?.map((entry) => entry.originalName)).toEqual(['b.txt', 'c.txt']);
    expect(shown(client, sortedKey('name', 'asc'))).toEqual(['b.txt', 'c.txt']);
    expect(shown(client, sortedKey('size', 'desc'))).toEqual(['b.txt', 'c.txt']);
  });
});
