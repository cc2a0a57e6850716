import type { SyncPath } from '../model.ts';
import { joinPath, nameOf, parentOf } from './paths.ts';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `YYYY-MM-DD HHMMSS` in the device's local time. */
function stamp(date: Date): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** Splits off the last extension: `report.final.pdf` -> [`report.final`, `.pdf`]; dot-files and names without a dot have none. */
function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
}

/**
 * The path a conflict's losing copy takes, beside the original:
 * `NAME (conflicted copy DEVICE YYYY-MM-DD HHMMSS).EXT`, EXT being the last extension, the time
 * the device's local time. When that path is `taken` (on either side, or by another copy of the
 * same pass), a counter goes inside the parentheses: `(conflicted copy DEVICE … 2)`, ` 3`, …
 */
export function conflictCopyName(path: SyncPath, device: string, date: Date, taken: (path: SyncPath) => boolean = () => false): SyncPath {
  const [stem, extension] = splitExtension(nameOf(path));
  const label = `conflicted copy ${device} ${stamp(date)}`;
  for (let counter = 1; ; counter += 1) {
    const suffix = counter === 1 ? label : `${label} ${counter}`;
    const candidate = joinPath(parentOf(path), `${stem} (${suffix})${extension}`);
    if (!taken(candidate)) return candidate;
  }
}
