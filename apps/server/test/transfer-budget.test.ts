import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, downloadFile, uploadFile } from '@cloudvault/test-support/drive';
import { holdDownload } from './helpers/held-download.ts';
import { readZip } from './helpers/read-zip.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const MiB = 1024 * 1024;
let server: TestServer;

beforeAll(async () => {
  // A deflated zip reserves 13.5 MiB, so with 16 MiB a second one cannot start beside it.
  server = await startTestServer({ env: { TRANSFER_MEMORY_MB: '16' } });
});
afterAll(() => server.close());

function zipOf(token: string, folderId: string) {
  return fetch(`${server.url}/api/user/folders/${folderId}/download`, { headers: { authorization: `Bearer ${token}` } });
}

describe('the memory budget of buffered transfers', () => {
  it('answers 503 with Retry-After while other transfers hold the budget, and serves again once they are done', async () => {
    const { token } = await createUser(server);
    const folderId = (await createFolder(server, token, 'Big')).id;
    // More than the sockets' buffers take, so a zip nobody reads stays midway and keeps its reservation.
    const big = randomBytes(48 * MiB);
    await uploadFile(server, token, big, { name: 'big.bin', folderId });
    const small = (await uploadFile(server, token, 'a small file', { name: 'small.txt' })).body.file.id as string;

    // The response has begun (its headers are in) before anything else happens.
    const held = await holdDownload(`${server.url}/api/user/folders/${folderId}/download`, token);
    expect(held.status).toBe(200);

    const refused = await zipOf(token, folderId);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ code: 'SERVER_BUSY', error: expect.stringContaining('try again') });
    // What is left of the budget still serves a small file.
    const file = await downloadFile(server, token, small);
    expect(file.status).toBe(200);
    expect(file.bytes.toString()).toBe('a small file');

    held.resume();
    const entries = await readZip(await held.body);
    expect((entries.get('big.bin') as Buffer).equals(big)).toBe(true);
    // The reservation is given back just after the client holds the last byte.
    await expect
      .poll(async () => {
        const response = await zipOf(token, folderId);
        await response.arrayBuffer();
        return response.status;
      })
      .toBe(200);
  });

  it('refuses a file download as plain JSON while the budget is spent, before any header of the file', async () => {
    const { token } = await createUser(server);
    const id = (await uploadFile(server, token, 'some bytes', { name: 'report.pdf', type: 'application/pdf' })).body.file.id as string;
    const budget = server.container.transferBudget;
    const release = budget.take(budget.limit - budget.inUse);
    expect(release).not.toBeNull();
    try {
      for (const headers of [{}, { range: 'bytes=0-3' }] as Array<Record<string, string>>) {
        const refused = await downloadFile(server, token, id, headers);
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('5');
        expect(refused.headers.get('content-type')).toContain('application/json');
        expect(refused.headers.get('content-disposition')).toBeNull();
        expect(JSON.parse(refused.bytes.toString())).toMatchObject({ code: 'SERVER_BUSY' });
      }
    } finally {
      release?.();
    }
    const served = await downloadFile(server, token, id);
    expect(served.status).toBe(200);
    expect(served.bytes.toString()).toBe('some bytes');
  });
});
