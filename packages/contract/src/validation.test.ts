import { describe, expect, it } from 'vitest';
import { cleanItemName, isValidEmail, isValidPassword, normalizeEmail, normalizeName } from './validation.ts';

describe('validators', () => {
  it('normalises e-mail by trimming and lower-casing', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it.each(['ada@example.com', 'a.b+c@mail.example.co.uk'])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each(['', 'ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com', 'ada@@example.com', `${'a'.repeat(250)}@example.com`])(
    'rejects %s',
    (email) => {
      expect(isValidEmail(email)).toBe(false);
    },
  );

  it('needs at least 6 characters of password', () => {
    expect(isValidPassword('12345')).toBe(false);
    expect(isValidPassword('123456')).toBe(true);
    expect(isValidPassword('x'.repeat(1025))).toBe(false);
  });

  it('trims names and refuses blank or overlong ones', () => {
    expect(normalizeName('  Ada ')).toBe('Ada');
    expect(normalizeName('   ')).toBeNull();
    expect(normalizeName('x'.repeat(256))).toBeNull();
  });
});

describe('cleanItemName', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['  spaced  ', 'spaced'],
    ['a/b\\c', 'abc'],
    ['../../etc/passwd', '....etcpasswd'],
    ['tab\there\nnew', 'tabherenew'],
    ['héllo wörld 日本', 'héllo wörld 日本'],
    ['"quoted" <name>', '"quoted" <name>'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['\u2066a\u2067b\u2068c\u2069\u202Ad\u202Be\u202Cf\u202Dg\u200Eh\u200Fi\u061Cj', 'abcdefghij'],
    ['עברית and العربية', 'עברית and العربية'],
  ])('cleans %j to %j', (input, output) => {
    expect(cleanItemName(input)).toBe(output);
  });

  it.each(['', '   ', '.', '..', '/', '\u0000', '\u202E', '.\u200F.', 'x'.repeat(256)])('refuses %j', (input) => {
    expect(cleanItemName(input)).toBeNull();
  });

  it('counts characters, not UTF-16 units, against the 255 limit', () => {
    expect(cleanItemName('😀'.repeat(255))).toBe('😀'.repeat(255));
  });
});
