import { createAppPassword, createUser } from '@cloudvault/test-support/accounts';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { request, type RunningServer } from '@cloudvault/test-support/running-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './helpers/cluster.ts';

const SHARED = '/dav/Shared%20with%20me';

/** One WebDAV request straight to a node, as a client given that node's address would send it. */
async function dav(node: RunningServer, auth: string, method: string, path: string, body?: string) {
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: { authorization: auth, ...(method === 'PROPFIND' ? { depth: '1' } : {}) },
    body,
  });
  const text = await response.text();
  return { status: response.status, code: text.startsWith('{') ? (JSON.parse(text) as { code: string }).code : undefined, text };
}

// Access to a shared folder is read from the shared database on every request, by the API and
// WebDAV alike, with nothing of it kept in a node's memory (docs/decisions/0061-share-roles.md):
// what the owner changes through one node holds at once on the other.
describe('a share changed or revoked on one node', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('holds at once on the other: an editor made a viewer can no longer write there, and once revoked reads nothing, over the API and WebDAV', async () => {
    const [nodeA, nodeB] = cluster.nodes;
    const owner = await createUser(cluster, { firstName: 'Olga' });
    const editor = await createUser(cluster, { firstName: 'Ed' });
    // Private shares go to verified addresses only.
    await cluster.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [editor.user.id]);
    const team = await createFolder(cluster, owner.token, 'Team');
    const shared = await request<{ share: { id: string } }>(nodeB, 'POST', `/api/user/folders/${team.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: editor.email, role: 'editor' },
    });
    expect(shared.status, shared.text).toBe(200);
    const shareId = shared.body.share.id;
    const auth = `Basic ${Buffer.from(`${editor.email}:${await createAppPassword(nodeA, editor)}`).toString('base64')}`;

    // The editor writes through node A, by WebDAV and by the API, into the owner's folder.
    expect((await dav(nodeA, auth, 'PUT', `${SHARED}/Team/by-dav.txt`, 'over WebDAV')).status).toBe(201);
    const uploaded = await uploadFile(nodeA, editor.token, 'over the API', { name: 'by-api.txt', folderId: team.id });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const fileId = uploaded.body.file.id;

    // The owner makes them a viewer through node B; the very next write through node A is refused.
    const changed = await request(nodeB, 'PATCH', `/api/shares/${shareId}`, { token: owner.token, body: { role: 'viewer' } });
    expect(changed.status, changed.text).toBe(200);
    const refusedDav = await dav(nodeA, auth, 'PUT', `${SHARED}/Team/again.txt`, 'again');
    expect([refusedDav.status, refusedDav.code]).toEqual([403, 'READ_ONLY_SHARE']);
    expect((await dav(nodeA, auth, 'DELETE', `${SHARED}/Team/by-dav.txt`)).status).toBe(403);
    const refusedApi = await uploadFile(nodeA, editor.token, 'again', { name: 'again.txt', folderId: team.id });
    expect([refusedApi.status, refusedApi.body.code]).toEqual([403, 'READ_ONLY_SHARE']);
    const refusedRename = await request(nodeA, 'PATCH', `/api/files/${fileId}`, { token: editor.token, body: { name: 'renamed.txt' } });
    expect([refusedRename.status, (refusedRename.body as { code: string }).code]).toEqual([403, 'READ_ONLY_SHARE']);
    // A viewer still reads, on both nodes.
    for (const node of [nodeA, nodeB]) {
      const read = await dav(node, auth, 'GET', `${SHARED}/Team/by-dav.txt`);
      expect([read.status, read.text]).toEqual([200, 'over WebDAV']);
      expect((await request(node, 'GET', `/api/files?folderId=${team.id}`, { token: editor.token })).status).toBe(200);
    }

    // Revoked through node B: every read through either node is 404, the API's and WebDAV's.
    expect((await request(nodeB, 'DELETE', `/api/shares/${shareId}`, { token: owner.token })).status).toBe(204);
    for (const node of [nodeA, nodeB]) {
      expect((await dav(node, auth, 'GET', `${SHARED}/Team/by-dav.txt`)).status).toBe(404);
      expect((await dav(node, auth, 'PROPFIND', `${SHARED}/Team/`)).status).toBe(404);
      expect((await dav(node, auth, 'PROPFIND', `${SHARED}/`)).text).not.toContain('Team');
      expect((await request(node, 'GET', `/api/files?folderId=${team.id}`, { token: editor.token })).status).toBe(404);
      expect((await request(node, 'GET', `/api/files/${fileId}/download`, { token: editor.token })).status).toBe(404);
    }
    // The owner's folder kept what the editor wrote while they could.
    const owners = await request<{ files: Array<{ originalName: string }> }>(nodeA, 'GET', `/api/files?folderId=${team.id}`, {
      token: owner.token,
    });
    expect(owners.body.files.map((file) => file.originalName).sort()).toEqual(['by-api.txt', 'by-dav.txt']);
  });
});
