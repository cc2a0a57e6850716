import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { FileItem } from '@cloudvault/contract/files';
import type { FoldersTable } from '../../db/schema.ts';
import { refusal } from '../../lib/refusal.testing.ts';
import type { ReceiveInput } from '../files/uploads.service.ts';
import type { ResolvedShare } from './public-links.service.ts';
import type { AddNotice, LinkUploadRow } from './public-uploads.repository.ts';
import { cleanUploaderName, createPublicUploadsService, type LinkUploadContent } from './public-uploads.service.ts';
import type { ShareRow } from './shares.repository.ts';
import { fakeClock, fakeLimiter } from './shares.fakes.ts';

const folder = (id: string, name = id) => ({ id, name, user_id: 'grace' }) as FoldersTable;
/** Grace's tree: Requests/{Inner}, and Private beside it. */
const TREE: Record<string, FoldersTable[]> = {
  requests: [folder('requests', 'Requests')],
  inner: [folder('requests', 'Requests'), folder('inner')],
  private: [folder('private')],
};

function setUp(role: string, options: { type?: 'file' | 'folder'; wanted?: boolean; countFails?: boolean } = {}) {
  const share = { id: 'share-1', user_id: 'grace', kind: 'link', role } as ShareRow;
  const resolved = (
    options.type === 'file'
      ? { share, ownerId: 'grace', type: 'file', file: { id: 'f' } }
      : { share, ownerId: 'grace', type: 'folder', folder: folder('requests', 'Requests') }
  ) as ResolvedShare;
  const received: ReceiveInput[] = [];
  const counted: Array<{ shareId: string; uploadId?: string; noticed: boolean }> = [];
  const activity: unknown[] = [];
  const errors: string[] = [];
  const linkUploads: LinkUploadRow[] = [];
  const perVisitor = fakeLimiter(2);
  const perLink = fakeLimiter(100);
  const service = createPublicUploadsService({
    links: { resolve: async () => resolved },
    uploads: {
      async receive(input) {
        received.push(input);
        const content = await input.content();
        return { id: 'new', originalName: content.fileName, size: 5, folderId: content.folderId } as FileItem;
      },
    },
    folders: { pathTo: async (_ownerId, id) => TREE[id] ?? [] },
    rows: {
      insert: async (row) => void linkUploads.push(row),
      find: async (shareId, uploadId) => linkUploads.find((row) => row.share_id === shareId && row.upload_id === uploadId),
      async countReceived(shareId, { uploadId, addNotice }: { uploadId?: string; addNotice?: AddNotice }) {
        if (options.countFails) throw new Error('database gone');
        counted.push({ shareId, uploadId, noticed: addNotice !== undefined });
        return true;
      },
    },
    notices: { wanted: async () => options.wanted ?? true, add: async () => {} },
    uploadsPerVisitor: perVisitor.limiter,
    uploadsPerLink: perLink.limiter,
    recordFolderActivity: async (entry) => void activity.push(entry),
    clock: fakeClock(),
    log: { error: (_details, message) => void errors.push(message), warn: () => {} },
  });
  const way = (content: Partial<LinkUploadContent> = {}) => ({
    declaredBytes: 100,
    content: async () => ({
      uploaderName: undefined,
      folderId: null,
      fileName: 'w2.pdf',
      declaredMimetype: undefined,
      body: Readable.from([]),
      ...content,
    }),
  });
  return { service, received, counted, activity, errors, linkUploads, perVisitor, way };
}

describe('uploads through a link', () => {
  it('are refused 403 on a link that only shows, or on a file link, before anything is counted', async () => {
    for (const setup of [setUp('view'), setUp('view-only'), setUp('upload', { type: 'file' })]) {
      const error = await refusal(setup.service.receive('token', undefined, '10.0.0.1', setup.way()));
      expect([error.status, error.code]).toEqual([403, 'UPLOADS_NOT_ALLOWED']);
      expect(setup.received).toEqual([]);
      expect(setup.perVisitor.counted.size).toBe(0);
    }
  });

  it("go in as the owner's upload into the link's folder, never over a file, and are counted, told and recorded once", async () => {
    const { service, received, counted, activity, way } = setUp('upload');
    const answer = await service.receive('token', undefined, '10.0.0.1', way({ uploaderName: ' Bob\u0007 ' }));
    expect(answer).toEqual({ file: { name: 'w2.pdf', size: 5 } });
    expect(received[0]).toMatchObject({ userId: 'grace', framing: 'multipart', conflict: 'keep-both' });
    expect(counted).toEqual([{ shareId: 'share-1', uploadId: undefined, noticed: true }]);
    expect(activity).toEqual([
      { ownerId: 'grace', folderId: 'requests', actor: { id: null, name: 'Bob' }, action: 'uploaded', kind: 'file', name: 'w2.pdf' },
    ]);
  });

  it('tell the owner nothing when their settings do not want it, and still count', async () => {
    const { service, counted, way } = setUp('upload', { wanted: false });
    await service.receive('token', undefined, '10.0.0.1', way());
    expect(counted).toEqual([{ shareId: 'share-1', uploadId: undefined, noticed: false }]);
  });

  it('are limited per visitor address (429), another address still sending', async () => {
    const { service, way } = setUp('upload');
    await service.receive('token', undefined, '10.0.0.1', way());
    await service.receive('token', undefined, '10.0.0.1', way());
    expect((await refusal(service.receive('token', undefined, '10.0.0.1', way()))).status).toBe(429);
    await expect(service.receive('token', undefined, '10.0.0.2', way())).resolves.toMatchObject({ file: { name: 'w2.pdf' } });
  });

  it('reach a folder inside the shared one on an edit link only, and nothing outside it', async () => {
    const edit = setUp('edit');
    await edit.service.receive('token', undefined, 'ip', edit.way({ folderId: 'inner' }));
    expect(edit.activity).toMatchObject([{ folderId: 'inner' }]);
    expect((await refusal(edit.service.receive('token', undefined, 'ip', edit.way({ folderId: 'private' })))).status).toBe(404);
    const upload = setUp('upload');
    expect((await refusal(upload.service.receive('token', undefined, 'ip', upload.way({ folderId: 'inner' })))).status).toBe(404);
  });

  it('keep the file when counting it fails: the failure is logged, not answered', async () => {
    const { service, errors, activity, way } = setUp('upload', { countFails: true });
    await expect(service.receive('token', undefined, 'ip', way())).resolves.toMatchObject({ file: { name: 'w2.pdf' } });
    expect(errors).toEqual(['a file received through a link was not counted or told to its owner']);
    expect(activity).toEqual([]);
  });

  it('count a resumable upload once it finishes, and not again when it was counted', async () => {
    const { service, counted, linkUploads } = setUp('upload');
    const link = await service.receivingLink('token', undefined);
    await service.recordResumable(link, 'up-1', 'Dora');
    const file = { originalName: 'scan.pdf', folderId: 'requests' } as FileItem;
    await service.resumableFinished(link, 'up-1', file);
    expect(counted).toEqual([{ shareId: 'share-1', uploadId: 'up-1', noticed: true }]);
    (linkUploads[0] as LinkUploadRow).counted = 1;
    await service.resumableFinished(link, 'up-1', file);
    expect(counted).toHaveLength(1);
    expect((await refusal(service.requireResumable('token', undefined, 'up-2'))).status).toBe(404);
  });
});

describe("a visitor's name", () => {
  it('loses control characters and surrounding spaces, is absent when empty, and is at most 100 characters', () => {
    expect(cleanUploaderName(' Ada\u0000 Lovelace\n ')).toBe('Ada Lovelace');
    expect(cleanUploaderName(' \u0007 ')).toBeUndefined();
    expect(cleanUploaderName(undefined)).toBeUndefined();
    expect(cleanUploaderName('é'.repeat(100))).toBe('é'.repeat(100));
    expect(() => cleanUploaderName('n'.repeat(101))).toThrow(/at most 100 characters/);
  });
});
