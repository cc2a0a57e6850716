import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { BaseEntry, LocalEntry } from '../model.ts';
import { hashFile } from './hash.ts';
import { loadIgnoreRules } from './ignore-rules.ts';
import { openLocalNames } from './names.ts';
import { scanLocal, type ScanOptions } from './scan.ts';

let root: string;
afterEach(() => rm(root, { recursive: true, force: true }));

async function tree(files: Record<string, string>) {
  root = await mkdtemp(path.join(os.tmpdir(), 'cv-scan-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
}

async function scan(options: Partial<ScanOptions> = {}) {
  const names = options.names ?? openLocalNames(root, new Database(':memory:'), 'linux');
  const result = await scanLocal(root, { ignore: await loadIgnoreRules(root), names, previous: () => undefined, ...options });
  return { ...result, names };
}

const asBase = (entries: Map<string, LocalEntry>) =>
  new Map<string, BaseEntry>([...entries].map(([p, e]) => [p, { ...e, remoteId: `id-${p}` }]));
const sha256 = (text: string) => import('node:crypto').then(({ createHash }) => createHash('sha256').update(text).digest('hex'));

describe('scanLocal', () => {
  it('lists files and folders by sync path with their hashes, leaving out ignored paths and the private area', async () => {
    await tree({
      'a.txt': 'alpha',
      'Docs/b.md': 'beta',
      'Docs/.DS_Store': 'x',
      '.cloudvault/tmp/part': 'y',
      'build/out.bin': 'z',
      '.cloudvaultignore': 'build/\n',
    });
    const { entries, skipped } = await scan();
    expect([...entries.keys()].sort()).toEqual(['.cloudvaultignore', 'Docs', 'Docs/b.md', 'a.txt']);
    expect(entries.get('a.txt')).toMatchObject({ kind: 'file', size: 5, hash: await sha256('alpha') });
    expect(entries.get('Docs')).toMatchObject({ kind: 'folder', size: 0 });
    expect(entries.get('Docs')?.hash).toBeUndefined();
    expect(skipped).toEqual([]);
  });

  it("reuses the journal's hash while size, mtime and inode are unchanged, and reads a changed file again", async () => {
    await tree({ 'same.txt': 'same', 'edited.txt': 'before' });
    const first = await scan();
    const base = asBase(first.entries);
    const stale = { ...base.get('same.txt')!, hash: 'journal-hash' };
    base.set('same.txt', stale);
    await writeFile(path.join(root, 'edited.txt'), 'after!');
    await utimes(path.join(root, 'edited.txt'), new Date(), new Date(Date.now() + 5000));
    const read: string[] = [];
    const { entries } = await scan({
      previous: (p) => base.get(p),
      hashFile: (file, size) => (read.push(path.basename(file)), hashFile(file, size)),
    });
    expect(entries.get('same.txt')?.hash).toBe('journal-hash');
    expect(entries.get('edited.txt')?.hash).toBe(await sha256('after!'));
    expect(read).toEqual(['edited.txt']);
  });

  it('refuses to answer for a synced folder that is not there, rather than report it empty', async () => {
    await tree({});
    await rm(root, { recursive: true });
    await expect(scan()).rejects.toThrow(/Cannot read the synced folder/);
  });

  it('reports a file it cannot read as unreadable, so the planner leaves it alone rather than count it deleted', async () => {
    await tree({ 'locked.docx': 'in use', 'free.txt': 'f' });
    const busy = Object.assign(new Error('resource busy or locked'), { code: 'EBUSY' });
    const { entries, unreadable, skipped } = await scan({
      hashFile: async (file, size) => (file.endsWith('locked.docx') ? Promise.reject(busy) : hashFile(file, size)),
    });
    expect([...entries.keys()]).toEqual(['free.txt']);
    expect(unreadable).toEqual(['locked.docx']);
    expect(skipped).toMatchObject([{ path: 'locked.docx', kind: 'skipped', message: expect.stringContaining('EBUSY') }]);
  });

  it('skips symbolic links with a warning', async () => {
    await tree({ 'target.txt': 't' });
    await symlink(path.join(root, 'target.txt'), path.join(root, 'link.txt'));
    const { entries, skipped } = await scan();
    expect(entries.has('link.txt')).toBe(false);
    expect(skipped).toMatchObject([{ path: 'link.txt', kind: 'skipped', message: expect.stringContaining('Symbolic link') }]);
  });

  it('renames on disk the later of two names the server counts as one, and says so', async () => {
    await tree({ 'A.txt': 'upper', 'a.txt': 'lower', 'Docs/x.txt': 'x', 'docs/y.txt': 'y' });
    const { entries, renamed, nameIssues } = await scan();
    expect((await readdir(root)).sort()).toEqual(['A.txt', 'Docs', 'a (name clash 1).txt', 'docs (name clash 1)']);
    expect(entries.get('a (name clash 1).txt')?.hash).toBe(await sha256('lower'));
    expect(entries.get('docs (name clash 1)/y.txt')?.hash).toBe(await sha256('y'));
    expect(renamed).toContainEqual({ from: 'a.txt', to: 'a (name clash 1).txt', reason: 'clash', done: true });
    expect(nameIssues.map((i) => [i.path, i.kind])).toContainEqual(['a (name clash 1).txt', 'name']);
  });

  it('lets the item the journal knows keep a shared name', async () => {
    await tree({ 'a.txt': 'synced before' });
    const base = asBase((await scan()).entries);
    await writeFile(path.join(root, 'A.txt'), 'new');
    const { entries } = await scan({ previous: (p) => base.get(p) });
    expect(entries.get('a.txt')?.hash).toBe(await sha256('synced before'));
    expect(entries.get('A (name clash 1).txt')?.hash).toBe(await sha256('new'));
  });

  it('maps a decomposed name to its composed sync path, and renames the second of two Unicode forms', async () => {
    await tree({ 'Cafe\u0301/menu.txt': 'm' });
    const single = await scan();
    expect([...single.entries.keys()].sort()).toEqual(['Café', 'Café/menu.txt']);
    expect(single.names.localPathFor('Café/menu.txt')).toBe('Cafe\u0301/menu.txt');

    await writeFile(path.join(root, 'é.txt'), 'composed');
    await writeFile(path.join(root, 'e\u0301.txt'), 'decomposed');
    const { entries } = await scan();
    expect(entries.get('é.txt')?.hash).toBe(await sha256('composed'));
    expect(entries.get('é (name clash 1).txt')?.hash).toBe(await sha256('decomposed'));
  });

  it('renames names the server would change, with a marker', async () => {
    await tree({ ' lead.txt': 'l', 'zero\u200bwidth.txt': 'z', 'back\\slash.txt': 'b' });
    const { entries, renamed } = await scan();
    expect([...entries.keys()].sort()).toEqual(['backslash (renamed).txt', 'lead (renamed).txt', 'zerowidth (renamed).txt']);
    expect(existsSync(path.join(root, 'lead (renamed).txt'))).toBe(true);
    expect(renamed.every((r) => r.reason === 'server-name' && r.done)).toBe(true);
  });

  it('on a dry run only says what it would rename', async () => {
    await tree({ 'A.txt': 'upper', 'a.txt': 'lower' });
    const { entries, renamed, nameIssues } = await scan({ dryRun: true });
    expect((await readdir(root)).sort()).toEqual(['A.txt', 'a.txt']);
    expect(entries.has('a (name clash 1).txt')).toBe(true);
    expect(renamed).toEqual([{ from: 'a.txt', to: 'a (name clash 1).txt', reason: 'clash', done: false }]);
    expect(nameIssues[0]?.message).toMatch(/^Would rename/);
  });

  it('reads a marked local name back as the server name it stands for', async () => {
    await tree({});
    const names = openLocalNames(root, new Database(':memory:'), 'linux');
    const long = `${'é'.repeat(200)}.txt`;
    const local = names.localPathFor(long);
    await writeFile(path.join(root, local), 'long');
    const { entries, renamed } = await scan({ names });
    expect([...entries.keys()]).toEqual([long]);
    expect(renamed).toEqual([]);
  });
});
