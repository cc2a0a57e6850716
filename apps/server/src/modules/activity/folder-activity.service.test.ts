import { describe, expect, it } from 'vitest';
import type { FolderActivityTable } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { refusal } from '../../lib/refusal.testing.ts';
import { createFolderActivityService } from './folder-activity.service.ts';

const NOW = new Date('2026-12-07T10:00:00.000Z');

function setUp(options: { failingInsert?: boolean } = {}) {
  const rows: FolderActivityTable[] = [];
  const logged: string[] = [];
  const service = createFolderActivityService({
    activity: {
      insert: async (row) => {
        if (options.failingInsert) throw new Error('database gone');
        rows.push(row);
      },
      listSubtree: async (ownerId, folderId) => rows.filter((row) => row.owner_id === ownerId && row.folder_id === folderId).reverse(),
    },
    users: { byId: async (id) => (id === 'eve' ? { first_name: 'Eve', last_name: 'Editor' } : undefined) },
    clock: { now: () => NOW },
    log: { error: (_details, message) => void logged.push(message), warn: () => {} },
    // Ada's folder "family" is readable to Ada and Eve; anything else is 404.
    readableFolder: async (userId, id) => {
      if (id === 'family' && (userId === 'ada' || userId === 'eve')) return { ownerId: 'ada' };
      throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
    },
  });
  return { service, rows, logged };
}

describe('a folder’s activity', () => {
  it('names an account by its first and last name, a link’s visitor by what they typed or "Someone"', async () => {
    const { service } = setUp();
    const entry = { ownerId: 'ada', folderId: 'family', kind: 'file', name: 'beach.jpg' } as const;
    await service.record({ ...entry, actor: { id: 'eve' }, action: 'renamed', details: { from: 'IMG_1.jpg' } });
    await service.record({ ...entry, actor: { id: null, name: '  Grandma ' }, action: 'uploaded' });
    await service.record({ ...entry, actor: { id: null, name: ' ' }, action: 'uploaded' });
    expect(await service.list('eve', 'family')).toEqual([
      expect.objectContaining({ action: 'uploaded', actor: { name: 'Someone', isLinkVisitor: true } }),
      expect.objectContaining({ action: 'uploaded', actor: { name: 'Grandma', isLinkVisitor: true } }),
      {
        id: expect.any(String),
        action: 'renamed',
        kind: 'file',
        name: 'beach.jpg',
        actor: { name: 'Eve Editor', isLinkVisitor: false },
        folderId: 'family',
        details: { from: 'IMG_1.jpg' },
        createdAt: NOW.toISOString(),
      },
    ]);
  });

  it('never fails what it records: a failed write is logged', async () => {
    const { service, logged } = setUp({ failingInsert: true });
    await service.record({ ownerId: 'ada', folderId: 'family', actor: { id: 'eve' }, action: 'deleted', kind: 'folder', name: 'Old' });
    expect(logged).toEqual(['folder activity not recorded']);
  });

  it('is 404 to whoever cannot read the folder', async () => {
    const { service } = setUp();
    expect((await refusal(service.list('mallory', 'family'))).status).toBe(404);
  });
});
