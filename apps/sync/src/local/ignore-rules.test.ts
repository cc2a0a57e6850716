import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadIgnoreRules } from './ignore-rules.ts';

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('loadIgnoreRules', () => {
  it('leaves out system droppings, editor files and the private area by default', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cv-ignore-'));
    const rules = await loadIgnoreRules(dir);
    for (const ignored of [
      '.DS_Store',
      'a/Thumbs.db',
      'desktop.ini',
      '~$report.docx',
      'x/.notes.swp',
      'draft~',
      '.~lock.budget.ods#',
      'build.tmp',
    ]) {
      expect(rules.ignores(ignored, false), ignored).toBe(true);
    }
    expect(rules.ignores('.cloudvault', true)).toBe(true);
    for (const kept of ['report.docx', 'tmp', 'a/b.txt', '.cloudvaultignore']) expect(rules.ignores(kept, false), kept).toBe(false);
  });

  it('adds the gitignore-syntax lines of .cloudvaultignore', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cv-ignore-'));
    await writeFile(path.join(dir, '.cloudvaultignore'), '# build output\nnode_modules/\n*.log\n!keep.log\n/only-at-root.txt\n');
    const rules = await loadIgnoreRules(dir);
    expect(rules.ignores('app/node_modules', true)).toBe(true);
    expect(rules.ignores('app/node_modules', false)).toBe(false);
    expect(rules.ignores('logs/today.log', false)).toBe(true);
    expect(rules.ignores('keep.log', false)).toBe(false);
    expect(rules.ignores('only-at-root.txt', false)).toBe(true);
    expect(rules.ignores('sub/only-at-root.txt', false)).toBe(false);
  });
});
