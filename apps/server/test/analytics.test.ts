import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const DAY = 24 * 60 * 60 * 1000;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

describe('analytics', () => {
  it('reports storage per day, space by category, the largest files and folders, and downloads per share', async () => {
    const user = await createUser(server);
    await subscribe(server, user.token, 'PREMIUM');
    const photos = (await createFolder(server, user.token, 'Photos')).id;
    const trip = (await createFolder(server, user.token, 'Trip', photos)).id;
    await uploadFile(server, user.token, Buffer.alloc(3000, 1), { name: 'beach.jpg', type: 'image/jpeg', folderId: trip });
    await uploadFile(server, user.token, Buffer.alloc(1000, 2), { name: 'cover.png', type: 'image/png', folderId: photos });
    await server.container.analytics.snapshotStorage();
    const firstDay = dayOf(server.clock.now());

    server.clock.advance(DAY);
    const report = (await uploadFile(server, user.token, Buffer.alloc(500, 3), { name: 'report.pdf', type: 'application/pdf' })).body.file
      .id;
    const link = await server.request('POST', `/api/files/${report}/share`, { token: user.token, body: {} });
    const token = link.body.shareUrl.split('/s/')[1];
    for (let index = 0; index < 3; index++) await fetch(`${server.url}/api/public/shares/${token}/download`);
    const secondDay = dayOf(server.clock.now());

    const analytics = await server.request('GET', '/api/analytics', { token: user.token });
    expect(analytics.status).toBe(200);
    expect(analytics.body.storageHistory).toEqual([
      { day: firstDay, bytes: 4000 },
      { day: secondDay, bytes: 4500 },
    ]);
    expect(analytics.body.byCategory).toEqual([
      { category: 'image', files: 2, bytes: 4000 },
      { category: 'document', files: 1, bytes: 500 },
    ]);
    expect(analytics.body.largestFiles.map((file: { name: string; size: number }) => `${file.name} ${file.size}`)).toEqual([
      'beach.jpg 3000',
      'cover.png 1000',
      'report.pdf 500',
    ]);
    expect(analytics.body.largestFolders.map((folder: { name: string; bytes: number }) => `${folder.name} ${folder.bytes}`)).toEqual([
      'Photos 4000',
      'Trip 3000',
    ]);
    expect(analytics.body.shareDownloads).toEqual([
      { shareId: link.body.shareId, name: 'report.pdf', total: 3, days: [{ day: secondDay, count: 3 }] },
    ]);
  });

  it('is a Business feature: 403 on Free and Pro', async () => {
    const free = await createUser(server);
    const refused = await server.request('GET', '/api/analytics', { token: free.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ANALYTICS_NOT_IN_PLAN');
    const pro = await createUser(server);
    await subscribe(server, pro.token, 'PRO');
    expect((await server.request('GET', '/api/analytics', { token: pro.token })).status).toBe(403);
  });
});
