import { describe, expect, it } from 'vitest';
import { createJournal } from '../journal/journal.ts';
import { openPairDatabase } from '../journal/open-database.ts';
import type { Action, BaseEntry, LocalEntry } from '../model.ts';
import { type ExecutionContext, executeAction } from './execute-action.ts';
import type { LocalSide, RemoteSide } from './ports.ts';

const row = (path: string, remoteId: string): BaseEntry => ({
  path,
  kind: 'file',
  remoteId,
  size: 4,
  hash: 'h',
  mtimeMs: 1000,
  inode: `i:${path}`,
});

/** A journal holding `rows`, a disk where every file stats as written, a drive that hands out any content. */
function contextWith(rows: BaseEntry[]) {
  const journal = createJournal(openPairDatabase(':memory:'));
  for (const entry of rows) journal.agree(entry);
  const stat = async (path: string): Promise<LocalEntry> => ({
    path,
    kind: 'file',
    size: 4,
    hash: 'h',
    mtimeMs: 2000,
    inode: `i:new:${path}`,
  });
  const local = { stat } as unknown as LocalSide;
  const context: ExecutionContext = {
    local,
    remote: {} as RemoteSide,
    journal,
    folderIds: new Map([['', null]]),
    localEntries: new Map(),
    remoteEntries: new Map(),
    upload: async () => ({ error: 'no uploads here' }),
    download: async (item) => ({ id: item.remoteId }),
    now: () => new Date(0),
  };
  return { journal, context };
}

describe('executeAction: one journal row per server file', () => {
  it('a file moved on the server and lost on disk, downloaded to its new place: its old row goes', async () => {
    const { journal, context } = contextWith([row('old.txt', 'r1'), row('other.txt', 'r2')]);
    const download: Action = { type: 'download', path: 'new.txt', remoteId: 'r1', size: 4, hash: 'h' };
    await executeAction(context, download);
    const paths = [...journal.loadBase().values()].map((entry) => `${entry.path}=${entry.remoteId}`).sort();
    expect(paths).toEqual(['new.txt=r1', 'other.txt=r2']);
  });

  it('a file moved alike on both sides, agreed at its new place: its old row goes', async () => {
    const { journal, context } = contextWith([row('a.txt', 'r1')]);
    await executeAction(context, { type: 'agree', entry: row('moved/a.txt', 'r1') });
    expect([...journal.loadBase().keys()]).toEqual(['moved/a.txt']);
  });
});
