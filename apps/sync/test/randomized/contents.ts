import type { SeededRandom } from './seeded-random.ts';

const FILE_WORDS = [
  'notes',
  'report',
  'photo',
  'draft',
  'budget',
  'plan',
  'todo',
  'Readme',
  'data',
  'summary',
  'letter',
  'café',
  'Ärger',
  'mixed Case',
];
const EXTENSIONS = ['.txt', '.md', '.pdf', '.jpg', '.csv', '', '.tar.gz', '.final.docx'];
const FOLDER_WORDS = ['Docs', 'photos', '2026', 'Projects', 'archive', 'misc', 'Über', 'a b', 'deep', 'Inbox'];

/**
 * A file name no actor has made before in this run. None ends in ` (N)`, the server's mark for
 * a taken name, so such a name found at the end was made by the client or the server, not by a person.
 */
export function newFileName(random: SeededRandom, counter: number): string {
  return `${random.pick(FILE_WORDS)} ${counter}${random.pick(EXTENSIONS)}`;
}

/** A folder name no actor has made before in this run. */
export function newFolderName(random: SeededRandom, counter: number): string {
  return `${random.pick(FOLDER_WORDS)} ${counter}`;
}

/** Whether `name` looks numbered by a server for a taken name: `name (1).ext`. */
export function looksNumbered(name: string): boolean {
  return /\s\(\d+\)(\.[^.]*)?$/.test(name);
}

/** The key the server compares sibling names by (packages/contract's nameKey): composed, lower-cased. */
export function siblingKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * New content for a file: mostly small (up to 64 KiB, most under 4 KiB), some empty, and when
 * `large` is allowed rarely 5-20 MB (past the size the client sends in batches, so it takes the
 * resumable path). Each non-empty content is unique: it starts with its number.
 */
export function newContent(random: SeededRandom, counter: number, large: boolean): Uint8Array {
  const kind = random.weighted({ empty: 8, tiny: 50, small: 35, medium: 5, large: large ? 2 : 0 });
  const size = {
    empty: 0,
    tiny: random.int(1, 4096),
    small: random.int(4097, 65_536),
    medium: random.int(65_537, 2 * 1024 * 1024),
    large: random.int(5, 20) * 1024 * 1024,
  }[kind];
  if (size === 0) return new Uint8Array(0);
  const header = Buffer.from(`content ${counter}\n`);
  return Buffer.concat([header, random.bytes(Math.max(0, size - header.length))]);
}
