import { describe, expect, it } from 'vitest';
import { planFromEntries, planFromFiles, type DroppedEntry } from './upload-plan';

/** Fake file-system entries as webkitGetAsEntry gives them (readEntries answers in chunks). */
function fileEntry(name: string): DroppedEntry {
  return { isFile: true, isDirectory: false, name, file: (done: (file: File) => void) => done(new File([name], name)) } as DroppedEntry;
}
function directoryEntry(name: string, children: DroppedEntry[]): DroppedEntry {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader: () => {
      const chunks = [children.slice(0, 2), children.slice(2), []];
      return { readEntries: (done: (entries: DroppedEntry[]) => void) => done(chunks.shift() ?? []) };
    },
  } as DroppedEntry;
}

describe('upload plans', () => {
  it('recreates a dropped folder tree: every folder (empty ones too) before the files', async () => {
    const plan = await planFromEntries([
      directoryEntry('Photos', [
        fileEntry('a.jpg'),
        directoryEntry('2024', [fileEntry('b.jpg'), fileEntry('c.jpg'), fileEntry('d.jpg')]),
        directoryEntry('Empty', []),
      ]),
      fileEntry('loose.txt'),
    ]);
    expect(plan.directories).toEqual([['Photos'], ['Photos', '2024'], ['Photos', 'Empty']]);
    expect(plan.files.map(({ file, directory }) => [...directory, file.name].join('/'))).toEqual([
      'Photos/a.jpg',
      'Photos/2024/b.jpg',
      'Photos/2024/c.jpg',
      'Photos/2024/d.jpg',
      'loose.txt',
    ]);
  });

  it("reads the tree from react-dropzone's relative paths", () => {
    const withPath = (name: string, relativePath: string) => Object.assign(new File(['x'], name), { relativePath });
    const plan = planFromFiles([withPath('a.txt', './a.txt'), withPath('b.txt', '/Docs/Deep/b.txt'), withPath('c.txt', '/Docs/c.txt')]);
    expect(plan.directories).toEqual([['Docs'], ['Docs', 'Deep']]);
    expect(plan.files.map(({ file, directory }) => [file.name, directory])).toEqual([
      ['a.txt', []],
      ['b.txt', ['Docs', 'Deep']],
      ['c.txt', ['Docs']],
    ]);
  });
});
