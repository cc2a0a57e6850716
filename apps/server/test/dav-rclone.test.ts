import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createUser } from '@cloudvault/test-support/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { davClientTestsRun, requireDavClient, runTool } from './helpers/dav-clients.ts';
import { davPassword } from './helpers/dav-requests.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/** Names a sync client must carry unchanged: unicode, spaces, and the characters URLs give meaning to. */
const AWKWARD_NAMES = [
  'résumé café.txt',
  '日本語のファイル.md',
  'with space.txt',
  '100% done.txt',
  'issue #20.txt',
  'a+b=c.txt',
  'emoji 🎉.txt',
  "o'brien (1).txt",
];
const LARGE_BYTES = 100 * 1024 * 1024;
/** Whole seconds: the server keeps modification times to the second, as Nextcloud does. */
const BASE_TIME = 1_700_000_000;

/** Writes `bytes` random bytes to a file a MiB at a time. */
async function writeRandomFile(file: string, bytes: number): Promise<void> {
  const chunks = (async function* () {
    for (let written = 0; written < bytes; written += 1024 * 1024) yield randomBytes(Math.min(1024 * 1024, bytes - written));
  })();
  await pipeline(Readable.from(chunks), createWriteStream(file));
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Every file under `root`, by its path relative to it, with its content's hash. */
async function treeHashes(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const hashes: Record<string, string> = {};
  for (const entry of entries.filter((one) => one.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    hashes[path.relative(root, file)] = await sha256Of(file);
  }
  return hashes;
}

/** A tree of a few hundred files in nested folders, with awkward names, an empty file and a 100 MB one. */
async function makeTree(root: string): Promise<void> {
  let index = 0;
  const stamp = async (file: string) => {
    index += 1;
    await utimes(file, BASE_TIME + index * 61, BASE_TIME + index * 61);
  };
  for (const folder of ['docs', 'docs/deep/deeper', 'photos 2026', 'ünïcödé', 'odd %2F #name+']) {
    await mkdir(path.join(root, folder), { recursive: true });
    for (let n = 0; n < 60; n++) {
      const file = path.join(root, folder, `file-${n}.txt`);
      await writeFile(file, randomBytes(100 + n * 37));
      await stamp(file);
    }
  }
  for (const name of AWKWARD_NAMES) {
    await writeFile(path.join(root, name), `content of ${name}\n`);
    await stamp(path.join(root, name));
  }
  await writeFile(path.join(root, 'empty.txt'), '');
  await stamp(path.join(root, 'empty.txt'));
  await writeRandomFile(path.join(root, 'large.bin'), LARGE_BYTES);
  await stamp(path.join(root, 'large.bin'));
}

describe.runIf(davClientTestsRun('rclone'))('rclone against /dav/', () => {
  let server: TestServer;
  let workDir: string;
  let rcloneEnv: Record<string, string>;
  let token: string;
  const rclone = async (...args: string[]) => {
    const run = await runTool('rclone', ['--config', '/dev/null', '--low-level-retries', '1', '--retries', '1', ...args], {
      env: rcloneEnv,
      timeoutMs: 300_000,
    });
    if (run.code !== 0) throw new Error(`rclone ${args.join(' ')} exited ${run.code}:\n${run.stderr.slice(-4000)}`);
    return run.stdout;
  };
  /** `rclone lsl` lines (size, modification time, path), sorted. */
  const listing = async (remote: string) =>
    (await rclone('lsl', remote))
      .split('\n')
      .filter(Boolean)
      .map((line) => line.trim())
      .sort();

  beforeAll(async () => {
    requireDavClient('rclone');
    server = await startTestServer();
    workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-rclone-'));
    const user = await createUser(server);
    token = user.token;
    // Pro: files past the Free plan's 102.4 MB and ten uploads at once, as rclone sends four.
    await server.container.database.db.updateTable('users').set({ plan_id: 'PRO' }).where('id', '=', user.user.id).execute();
    const obscured = await runTool('rclone', ['obscure', await davPassword(server, user)]);
    // The ownCloud flavour: modification times with X-OC-Mtime, and plain PUTs (Nextcloud's
    // flavour would send large files to Nextcloud's own chunked-upload API, which we do not have).
    rcloneEnv = {
      RCLONE_CONFIG_CLOUD_TYPE: 'webdav',
      RCLONE_CONFIG_CLOUD_URL: `${server.url}/dav/`,
      RCLONE_CONFIG_CLOUD_VENDOR: 'owncloud',
      RCLONE_CONFIG_CLOUD_USER: user.email,
      RCLONE_CONFIG_CLOUD_PASS: obscured.stdout.trim(),
    };
    await makeTree(path.join(workDir, 'source'));
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('copies a tree up and back byte for byte, with its modification times', { timeout: 600_000 }, async () => {
    const source = path.join(workDir, 'source');
    await rclone('copy', source, 'cloud:tree');
    await rclone('check', source, 'cloud:tree', '--download');
    expect(await listing('cloud:tree')).toEqual(await listing(source));

    const back = path.join(workDir, 'back');
    await rclone('copy', 'cloud:tree', back);
    expect(await treeHashes(back)).toEqual(await treeHashes(source));
    expect(await listing(back)).toEqual(await listing(source));
  });

  it('syncs changes: edited files replaced in place, new ones added, removed ones sent to Trash', { timeout: 600_000 }, async () => {
    const source = path.join(workDir, 'source');
    await writeFile(path.join(source, 'docs', 'file-1.txt'), 'edited');
    await utimes(path.join(source, 'docs', 'file-1.txt'), BASE_TIME + 999_999, BASE_TIME + 999_999);
    await writeFile(path.join(source, 'photos 2026', 'new one.txt'), 'new');
    await utimes(path.join(source, 'photos 2026', 'new one.txt'), BASE_TIME + 5, BASE_TIME + 5);
    await rm(path.join(source, 'docs', 'file-2.txt'));
    await rm(path.join(source, 'ünïcödé'), { recursive: true });
    const edited = async () => {
      const db = server.container.database.db;
      const docs = await db
        .selectFrom('folders')
        .innerJoin('folders as tree', 'tree.id', 'folders.parent_id')
        .select('folders.id')
        .where('folders.name', '=', 'docs')
        .where('tree.name', '=', 'tree')
        .executeTakeFirstOrThrow();
      return db
        .selectFrom('files')
        .select(['id', 'size'])
        .where('folder_id', '=', docs.id)
        .where('name', '=', 'file-1.txt')
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
    };
    const before = await edited();

    await rclone('sync', source, 'cloud:tree');
    // The edited file got its new bytes in place: its id (and so its links) stayed.
    expect(await edited()).toEqual({ id: before.id, size: 6 });
    await rclone('check', source, 'cloud:tree', '--download');
    expect(await listing('cloud:tree')).toEqual(await listing(source));
    const trash = await server.request('GET', '/api/trash', { token });
    expect(trash.body.files.map((file: { originalName: string }) => file.originalName)).toContain('file-2.txt');
  });
});
