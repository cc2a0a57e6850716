import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createAppPassword, createUser } from '@cloudvault/test-support/accounts';
import { afterEach, expect, test } from 'vitest';
import { type RestartableServer, startRestartableServer } from './restartable-server.ts';
import { syncClient } from './sync-client.ts';
import { diffTrees, hashBytes, readLocalTree } from './trees.ts';
import { webActor } from './web-actor.ts';

/** What the randomized seeds found, each cut down to the few steps that show it, so it stays found once fixed. */
let server: RestartableServer | undefined;
let workDir = '';
afterEach(async () => {
  await server?.kill();
  await rm(workDir, { recursive: true, force: true });
});

// Seeds 2 and 457701617: a file moved on the server and, before a pass, elsewhere on disk. The
// client put it at the server's place, then each pass trashed it on the server and sent it again.
test('a file moved on the server and on disk between passes ends at one place, with nothing left to do and nothing extra', async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-sync-found-'));
  await mkdir(path.join(workDir, 'server'));
  server = await startRestartableServer(path.join(workDir, 'server'), { versioning: true });
  const user = await createUser({ url: server.url });
  const alpha = syncClient('alpha', path.join(workDir, 'alpha'), path.join(workDir, 'alpha-config'));
  await mkdir(path.join(alpha.dir, 'A'), { recursive: true });
  expect((await alpha.login(server.url, user.email, await createAppPassword({ url: server.url }, user))).code).toBe(0);
  await writeFile(path.join(alpha.dir, 'A', 'f.txt'), 'hello');
  expect((await alpha.syncOnce()).code).toBe(0);

  const web = webActor(server.url, user.token);
  const folderB = (await web.createFolder('B', null)).body as { folder: { id: string } };
  const fileId = (await web.view()).fileIds.get('A/f.txt') as string;
  expect((await web.renameOrMoveFile(fileId, { folderId: folderB.folder.id })).status).toBe(200);
  await rename(path.join(alpha.dir, 'A', 'f.txt'), path.join(alpha.dir, 'f.txt'));

  const first = await alpha.syncOnce();
  const second = await alpha.syncOnce();
  expect([first.code, second.code], second.output).toEqual([0, 0]);
  expect(second.output).toMatch(/nothing to do/);
  const serverTree = (await web.view()).tree;
  expect(diffTrees(await readLocalTree(alpha.dir), 'alpha', serverTree, 'server')).toEqual([]);
  expect([...serverTree.files.keys()]).toHaveLength(1);
});

// Seed 456363140: a file edited on the device less than a second before a pass (so the pass
// still saw it as last agreed) while the web replaced it with bytes the device held elsewhere.
// The pass copied those bytes over the edit on disk, and the edit was gone from every side.
test('an edit made on the device just before a pass is never overwritten by a copy of content the disk holds elsewhere', async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-sync-found-'));
  await mkdir(path.join(workDir, 'server'));
  server = await startRestartableServer(path.join(workDir, 'server'), { versioning: false });
  const user = await createUser({ url: server.url });
  const beta = syncClient('beta', path.join(workDir, 'beta'), path.join(workDir, 'beta-config'));
  await mkdir(beta.dir, { recursive: true });
  expect((await beta.login(server.url, user.email, await createAppPassword({ url: server.url }, user))).code).toBe(0);
  await writeFile(path.join(beta.dir, 'notes.jpg'), 'the first notes');
  await writeFile(path.join(beta.dir, 'empty.tar.gz'), '');
  expect((await beta.syncOnce()).code).toBe(0);

  const web = webActor(server.url, user.token);
  expect((await web.upload(null, 'notes.jpg', new Uint8Array(), 'replace')).status).toBe(201);
  await writeFile(path.join(beta.dir, 'notes.jpg'), 'the edit made on this device');
  // At once: the edit is younger than the settling time, the pass plans on what was agreed.
  const outputs = [(await beta.syncOnce()).output];
  // Then, the edit settled, until nothing is left to do.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  for (let pass = 0; pass < 3 && !outputs.at(-1)!.includes('nothing to do'); pass += 1) outputs.push((await beta.syncOnce()).output);

  const serverTree = (await web.view()).tree;
  const localTree = await readLocalTree(beta.dir);
  expect(diffTrees(localTree, 'beta', serverTree, 'server'), outputs.join('\n')).toEqual([]);
  const contents = [...localTree.files.values()];
  expect(contents, outputs.join('\n')).toContain(hashBytes(Buffer.from('the edit made on this device')));
});

// Seed 1962545708: a file written again with the same bytes on the device (a new mtime, the
// content as agreed) while the web changed it. The plan downloaded the web's content, and the
// placement, comparing the disk with the journal's mtime rather than with the scan, refused it
// as "changed on disk meanwhile" at every pass, for ever.
test('a file saved again unchanged on the device takes the content the web gave it, at the next pass', async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-sync-found-'));
  await mkdir(path.join(workDir, 'server'));
  server = await startRestartableServer(path.join(workDir, 'server'), { versioning: true });
  const user = await createUser({ url: server.url });
  const alpha = syncClient('alpha', path.join(workDir, 'alpha'), path.join(workDir, 'alpha-config'));
  await mkdir(alpha.dir, { recursive: true });
  expect((await alpha.login(server.url, user.email, await createAppPassword({ url: server.url }, user))).code).toBe(0);
  await writeFile(path.join(alpha.dir, 'data.txt'), 'as agreed');
  expect((await alpha.syncOnce()).code).toBe(0);

  await writeFile(path.join(alpha.dir, 'data.txt'), 'as agreed');
  const web = webActor(server.url, user.token);
  expect((await web.upload(null, 'data.txt', Buffer.from('the web changed it'), 'replace')).status).toBe(201);
  // Settled: the save is older than the settling time when the pass looks.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const pass = await alpha.syncOnce();
  expect(pass.code, pass.output).toBe(0);
  expect(await readFile(path.join(alpha.dir, 'data.txt'), 'utf8')).toBe('the web changed it');
  expect((await alpha.syncOnce()).output).toMatch(/nothing to do/);
});
