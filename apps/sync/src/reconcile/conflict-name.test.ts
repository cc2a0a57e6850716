import { describe, expect, it } from 'vitest';
import { conflictCopyName } from './conflict-name.ts';

const at = new Date(2026, 11, 6, 15, 30, 12);

describe('conflictCopyName', () => {
  it('puts the device and the local time before the last extension', () => {
    expect(conflictCopyName('docs/report.final.pdf', 'laptop', at)).toBe(
      'docs/report.final (conflicted copy laptop 2026-12-06 153012).pdf',
    );
  });

  it('appends to a name without an extension, and to a dot-file', () => {
    expect(conflictCopyName('Makefile', 'laptop', at)).toBe('Makefile (conflicted copy laptop 2026-12-06 153012)');
    expect(conflictCopyName('a/.env', 'laptop', at)).toBe('a/.env (conflicted copy laptop 2026-12-06 153012)');
  });

  it('pads months, days and times to two digits', () => {
    expect(conflictCopyName('x.txt', 'pc', new Date(2027, 0, 2, 3, 4, 5))).toBe('x (conflicted copy pc 2027-01-02 030405).txt');
  });

  it('counts inside the parentheses when the name is taken', () => {
    const taken = new Set(['x (conflicted copy pc 2026-12-06 153012).txt', 'x (conflicted copy pc 2026-12-06 153012 2).txt']);
    expect(conflictCopyName('x.txt', 'pc', at, (path) => taken.has(path))).toBe('x (conflicted copy pc 2026-12-06 153012 3).txt');
  });
});
