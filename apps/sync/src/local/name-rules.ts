/**
 * The rules names follow on each side: what the server accepts (its cleaning and its
 * NFC-lower-cased key, from the contract) and what this disk can hold, and the marked
 * names the client gives an item when the two disagree. Pure: no disk access.
 */
import { cleanItemName, ITEM_NAME_MAX_LENGTH, nameKey } from '@cloudvault/contract/validation';

export type Platform = 'linux' | 'darwin' | 'win32';

/** Marks a local name the client changed because the server would have changed or refused it. */
export const RENAMED_MARKER = 'renamed';
/** Marks the later of two local names the server counts as one (`A.txt` and `a.txt`, or two Unicode forms). */
export const CLASH_MARKER = 'name clash';
/** Marks the local name of a server item whose own name this disk cannot hold. */
export const DISK_MARKER = 'renamed on this disk';

// eslint-disable-next-line no-control-regex -- Windows refuses control characters in names
const WINDOWS_FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f]/g;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])$/i;
/** Longer tails are not extensions (`notes.from a long meeting`): the marker goes at the end. */
const MAX_EXTENSION_LENGTH = 16;
/** Printable ASCII, no backslash, no space at either end, at most 255 characters. */
const PLAIN_ASCII_NAME = /^(?=[^ ])[\x20-\x5b\x5d-\x7e]{1,255}(?<=[^ ])$/;
/** A folder would need this many clashing names before the numbering gives up. */
const MAX_ATTEMPTS = 100_000;

/** True when a file or folder on this platform's disks can be called `name`. */
export function diskCanHold(name: string, platform: Platform): boolean {
  if (platform !== 'win32') return Buffer.byteLength(name, 'utf8') <= 255;
  if (name.length > 255 || /[. ]$/.test(name)) return false;
  if (new RegExp(WINDOWS_FORBIDDEN.source).test(name)) return false;
  return !WINDOWS_RESERVED.test((name.split('.')[0] ?? '').trimEnd());
}

/** True when the server would store a local name otherwise than it is (up to Unicode form), or refuse it. */
export function serverWouldChange(localName: string): boolean {
  // Most names are printable ASCII without a backslash or edge spaces, which cleaning keeps
  // as they are; the full check's Unicode expressions cost more than the rest of a scan.
  if (PLAIN_ASCII_NAME.test(localName) && localName !== '.' && localName !== '..') return false;
  return cleanItemName(localName) !== localName.normalize('NFC');
}

/**
 * The server's key of a name (nameKey: NFC, lower case), without the two normalisations for
 * plain ASCII, where they change nothing: a scan takes the key of every name.
 */
export function keyOf(name: string): string {
  return PLAIN_ASCII_NAME.test(name) ? name.toLowerCase() : nameKey(name);
}

/** `report.final.pdf` → [`report.final`, `.pdf`]; a leading dot is part of the stem (`.bashrc`). */
export function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || name.length - dot > MAX_EXTENSION_LENGTH) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/**
 * `STEM (MARKER).EXT` (`MARKER N` from the second try on), the stem shortened by whole code
 * points until the name fits both the server (255 characters) and this disk, so the marked
 * name is one both sides keep exactly.
 */
export function markedName(name: string, marker: string, attempt: number, platform: Platform): string {
  const [stem, extension] = splitExtension(name);
  const suffix = ` (${attempt > 1 || marker === CLASH_MARKER ? `${marker} ${attempt}` : marker})${extension}`;
  const points = [...stem];
  let candidate = `${stem}${suffix}`;
  while (points.length > 1 && ([...candidate].length > ITEM_NAME_MAX_LENGTH || !diskCanHold(candidate, platform))) {
    points.pop();
    candidate = `${points.join('').trimEnd()}${suffix}`;
  }
  return candidate;
}

/**
 * What is left of a name the server refuses outright (only invisible or control characters,
 * `.`, `..`): every such character dropped, `unnamed` when nothing remains.
 */
export function salvageName(name: string): string {
  const visible = name
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Default_Ignorable_Code_Point}/\\]/gu, '')
    .trim();
  const cleaned = visible === '.' || visible === '..' ? '' : visible;
  return cleanItemName(cleaned) ?? 'unnamed';
}

/** A server name made holdable on a Windows disk: forbidden characters become `_`, trailing dots and spaces go. */
export function windowsSafeBase(name: string): string {
  return name.replace(WINDOWS_FORBIDDEN, '_').replace(/[. ]+$/, '') || '_';
}

/**
 * The first marked name for `name` (`marker`, then `marker 2`…) that is not `taken` (the
 * caller compares by the server's key, and the disk) and that both sides hold as it is.
 */
export function firstFreeMarkedName(name: string, marker: string, taken: (candidate: string) => boolean, platform: Platform): string {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const candidate = markedName(name, marker, attempt, platform);
    if (!taken(candidate) && cleanItemName(candidate) === candidate && diskCanHold(candidate, platform)) return candidate;
  }
  // Only a base the server itself would clean gets here: a caller's mistake, said plainly.
  throw new Error(`No usable marked name for "${name}"`);
}
