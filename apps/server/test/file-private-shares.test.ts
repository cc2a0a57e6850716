import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { startServerWithSmtp } from './helpers/server-with-smtp.ts';
import type { SmtpSink } from './helpers/smtp-sink.ts';
import type { TestServer } from './helpers/test-server.ts';

let server: TestServer;
let smtp: SmtpSink;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, smtp, close } = await startServerWithSmtp());
});
afterAll(() => close());

const download = (fileId: string, token: string) =>
  fetch(`${server.url}/api/files/${fileId}/download`, { headers: { authorization: `Bearer ${token}` } });

describe('sharing a file with a person (docs/api.md#files)', () => {
  it('lets the recipient list and download that file, and nothing beside it, until the owner removes the share', async () => {
    const owner = await createUser(server, { firstName: 'Ada', lastName: 'Lovelace' });
    const recipient = await createVerifiedUser(server);
    const folder = (await createFolder(server, owner.token, 'Work')).id;
    const report = (await uploadFile(server, owner.token, 'report bytes', { name: 'report.txt', folderId: folder })).body.file.id as string;
    const beside = (await uploadFile(server, owner.token, 'beside bytes', { name: 'beside.txt', folderId: folder })).body.file.id as string;

    const shared = await server.request('POST', `/api/files/${report}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: `  ${recipient.email.toUpperCase()} ` },
    });
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({
      message: `File shared with ${recipient.email}`,
      share: { kind: 'private', email: recipient.email, itemType: 'file', itemId: report, name: 'report.txt', expiresAt: null },
    });
    // Again with the same address: the same share, no second one.
    const again = await server.request('POST', `/api/files/${report}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: recipient.email },
    });
    expect(again.body.share.id).toBe(shared.body.share.id);

    const mail = await smtp.waitForMail(recipient.email, /shared the file/);
    expect(mail?.subject).toBe('Ada shared the file “report.txt” with you');

    const mine = await server.request('GET', '/api/shared-with-me', { token: recipient.token });
    expect(mine.body.folders).toEqual([]);
    expect(mine.body.files).toEqual([
      expect.objectContaining({
        id: report,
        originalName: 'report.txt',
        folderId: null,
        shareId: shared.body.share.id,
        owner: { firstName: 'Ada' },
      }),
    ]);
    expect(await (await download(report, recipient.token)).text()).toBe('report bytes');
    expect((await server.request('POST', `/api/files/${report}/download-link`, { token: recipient.token })).status).toBe(200);

    // Read-only (a viewer's change is 403 READ_ONLY_SHARE: the file is theirs to see), and nothing of the folder it lives in.
    expect((await download(beside, recipient.token)).status).toBe(404);
    expect((await server.request('GET', `/api/files?folderId=${folder}`, { token: recipient.token })).status).toBe(404);
    const deleted = await server.request('DELETE', `/api/files/${report}`, { token: recipient.token });
    expect([deleted.status, deleted.body.code]).toEqual([403, 'READ_ONLY_SHARE']);
    const renamed = await server.request('PATCH', `/api/files/${report}`, { token: recipient.token, body: { name: 'mine.txt' } });
    expect([renamed.status, renamed.body.code]).toEqual([403, 'READ_ONLY_SHARE']);

    // The owner's list shows the share, as the dialog reads it; removing it ends the access at once.
    const listed = await server.request('GET', '/api/shares', { token: owner.token });
    expect(listed.body.shares).toEqual([
      expect.objectContaining({ id: shared.body.share.id, kind: 'private', itemType: 'file', itemId: report }),
    ]);
    expect((await server.request('DELETE', `/api/shares/${shared.body.share.id}`, { token: owner.token })).status).toBe(204);
    expect((await server.request('GET', '/api/shared-with-me', { token: recipient.token })).body.files).toEqual([]);
    expect((await download(report, recipient.token)).status).toBe(404);

    const overview = await server.request('GET', '/api/user/overview', { token: owner.token });
    expect(overview.body.activity).toContainEqual(
      expect.objectContaining({ type: 'share', details: { kind: 'private', item: 'file', name: 'report.txt', email: recipient.email } }),
    );
  });

  it("refuses a bad address, oneself and someone else's file, and still makes links from the body it always took", async () => {
    const owner = await createUser(server);
    const other = await createUser(server);
    const file = (await uploadFile(server, owner.token, 'x', { name: 'x.txt' })).body.file.id as string;
    const share = (token: string, body: unknown) => server.request('POST', `/api/files/${file}/share`, { token, body });

    expect(await share(owner.token, { shareType: 'private', email: 'not-an-email' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_EMAIL' },
    });
    expect(await share(owner.token, { shareType: 'private', email: owner.email })).toMatchObject({
      status: 400,
      body: { code: 'SHARE_WITH_SELF' },
    });
    expect((await share(owner.token, { shareType: 'private' })).status).toBe(400);
    expect((await share(other.token, { shareType: 'private', email: 'friend@example.com' })).body).toMatchObject({
      code: 'FILE_NOT_FOUND',
    });
    expect((await server.request('GET', '/api/shares', { token: owner.token })).body.shares).toEqual([]);

    // A link: the old body, and the same with shareType public.
    expect((await share(owner.token, {})).body).toMatchObject({ shareUrl: expect.any(String), shareId: expect.any(String) });
    expect((await share(owner.token, { shareType: 'public', expiresIn: 2 })).body).toMatchObject({ shareUrl: expect.any(String) });
    const overview = await server.request('GET', '/api/user/overview', { token: owner.token });
    expect(overview.body.activity).toContainEqual(
      expect.objectContaining({ type: 'share', details: { kind: 'link', item: 'file', name: 'x.txt' } }),
    );
  });
});
