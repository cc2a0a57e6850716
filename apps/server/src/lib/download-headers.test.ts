import { describe, expect, it } from 'vitest';
import { attachmentDisposition, ifRangeHolds, parseRange } from './download-headers.ts';

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition('résumé "final".pdf')).toBe(
      `attachment; filename="resume _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
    expect(attachmentDisposition('日本.txt')).toMatch(/^attachment; filename="[_]+\.txt"; filename\*=UTF-8''%E6%97%A5%E6%9C%AC\.txt$/);
  });

  it('leaves out bidirectional controls, so a stored name cannot disguise its extension', () => {
    expect(attachmentDisposition('invoice\u202Efdp.exe')).toBe(`attachment; filename="invoicefdp.exe"; filename*=UTF-8''invoicefdp.exe`);
  });
});

describe('ifRangeHolds', () => {
  it.each([
    [undefined, true],
    ['"abc"', true],
    [' "abc" ', true],
    ['"abd"', false],
    ['W/"abc"', false],
    ['Tue, 24 Nov 2026 07:00:00 GMT', false],
    ['', false],
    [['"abc"', '"abc"'], false],
  ])('reads If-Range %s against "abc"', (header, expected) => {
    expect(ifRangeHolds(header, '"abc"')).toBe(expected);
  });
});

describe('parseRange', () => {
  it.each([
    [undefined, 100, { kind: 'whole' }],
    ['bytes=0-0', 100, { kind: 'range', start: 0, end: 0 }],
    ['bytes=10-19', 100, { kind: 'range', start: 10, end: 19 }],
    ['bytes=90-', 100, { kind: 'range', start: 90, end: 99 }],
    ['bytes=-10', 100, { kind: 'range', start: 90, end: 99 }],
    ['bytes=-500', 100, { kind: 'range', start: 0, end: 99 }],
    ['bytes=50-1000', 100, { kind: 'range', start: 50, end: 99 }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=20-10', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', 100, { kind: 'whole' }],
    ['items=0-1', 100, { kind: 'whole' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
  ])('reads %s of %d bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
