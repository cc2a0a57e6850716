import { describe, expect, it, vi } from 'vitest';
import { notFound } from '../../lib/errors.ts';
import { refusal } from '../../lib/refusal.testing.ts';
import type { FileRow } from './files.repository.ts';
import type { ArchiveMember } from './folder-archive.service.ts';
import { createSelectionZipService, decodeSelection, encodeSelection } from './selection-zip.service.ts';

/** A drive of one user: the folders and files by id, everything else missing (another user's, in Trash). */
function service(folders: Record<string, string>, files: Record<string, string>) {
  const archiveOf = vi.fn(async (_userId: string, name: string, members: readonly ArchiveMember[]) => ({ name, members }));
  const selections = createSelectionZipService({
    folders: {
      findLive: async (_userId, id) =>
        folders[id] === undefined ? undefined : ({ id, name: folders[id], updated_at: '2026-12-06T10:00:00.000Z' } as never),
    },
    files: {
      requireFile: async (_userId, id) => {
        if (files[id] === undefined) throw notFound('File not found', 'FILE_NOT_FOUND');
        return { id, name: files[id], blob_key: `blob-${id}`, size: 1, crc32: 0, updated_at: '2026-12-06T10:00:00.000Z' } as FileRow;
      },
    },
    folderArchives: { archiveOf: archiveOf as never },
    clock: { now: () => new Date('2026-12-06T23:30:00Z') },
  });
  return { selections, archiveOf };
}

const names = (members: readonly ArchiveMember[]) => members.map((member) => `${member.kind}:${member.name}`);

describe('selection zip service', () => {
  it('names the zip by the date, puts folders and files under unique names (case aside), and counts an id twice once', async () => {
    const { selections, archiveOf } = service({ d1: 'Notes', d2: 'photos' }, { f1: 'notes', f2: 'Photos', f3: 'a.txt', f4: 'A.TXT' });
    await selections.archive('u1', { folders: ['d1', 'd2', 'd1'], files: ['f1', 'f2', 'f3', 'f4', 'f3'] });
    const [, zipName, members] = archiveOf.mock.calls[0]!;
    expect(zipName).toBe('CloudVault 2026-12-06.zip');
    expect(names(members)).toEqual(['folder:Notes', 'folder:photos', 'file:notes (1)', 'file:Photos (1)', 'file:a.txt', 'file:A (1).TXT']);
  });

  it('refuses an empty selection with 400 and a missing item with its 404, before any zip', async () => {
    const { selections, archiveOf } = service({ d1: 'Mine' }, { f1: 'mine.txt' });
    expect((await refusal(selections.archive('u1', { folders: [], files: [] }))).code).toBe('EMPTY_SELECTION');
    expect((await refusal(selections.check('u1', { folders: ['d1'], files: ['gone'] }))).code).toBe('FILE_NOT_FOUND');
    expect((await refusal(selections.archive('u1', { folders: ['theirs'], files: ['f1'] }))).code).toBe('FOLDER_NOT_FOUND');
    expect(archiveOf).not.toHaveBeenCalled();
  });

  it("carries a selection through a link's id and reads nothing else as one", () => {
    const selection = { files: ['f1', 'f2'], folders: ['d1'] };
    expect(decodeSelection(encodeSelection(selection))).toEqual(selection);
    expect(decodeSelection('x:1')).toBeNull();
    expect(decodeSelection('f:')).toBeNull();
    expect(decodeSelection('')).toBeNull();
  });
});
