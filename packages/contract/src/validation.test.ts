import { describe, expect, it } from 'vitest';
import {
  cleanItemName,
  hasInvisibleCharacter,
  isValidEmail,
  isValidPassword,
  nameKey,
  normalizeEmail,
  normalizeName,
} from './validation.ts';

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
    ['cafe\u0301.txt', 'caf\u00e9.txt'],
    ['A\u0308pfel', '\u00c4pfel'],
    ['\u2764\ufe0f photos', '\u2764\ufe0f photos'],
    ['\u{1F468}\u200d\u{1F469}\u200d\u{1F467} holiday', '\u{1F468}\u200d\u{1F469}\u200d\u{1F467} holiday'],
    ['#\ufe0f\u20e3 keycap', '#\ufe0f\u20e3 keycap'],
    ['\u0646\u0627\u0645\u0647\u200c\u0647\u0627', '\u0646\u0627\u0645\u0647\u200c\u0647\u0627'],
  ])('cleans %j to %j', (input, output) => {
    expect(cleanItemName(input)).toBe(output);
  });

  it.each(['', '   ', '.', '..', '/', '\u0000', '\u202E', '.\u200F.', 'x'.repeat(256)])('refuses %j', (input) => {
    expect(cleanItemName(input)).toBeNull();
  });

  it.each([
    ['a zero-width space', 'a\u200bb.txt'],
    ['a zero-width non-joiner between Latin letters', 'a\u200cb.txt'],
    ['a zero-width joiner between Latin letters', 'a\u200db.txt'],
    ['a soft hyphen', 'in\u00advoice.pdf'],
    ['a leading byte order mark', '\ufeffreport.pdf'],
    ['a variation selector after a letter', 'x\ufe0f.txt'],
    ['a combining grapheme joiner', 'a\u034fb'],
    ['a word joiner', 'a\u2060b'],
    ['a Hangul filler', '\u3164'],
  ])('refuses %s', (_what, input) => {
    expect(hasInvisibleCharacter(input)).toBe(true);
    expect(cleanItemName(input)).toBeNull();
  });

  it('counts characters, not UTF-16 units, against the 255 limit', () => {
    expect(cleanItemName('😀'.repeat(255))).toBe('😀'.repeat(255));
  });
});

describe('nameKey', () => {
  it.each([
    ['\u00c4pfel.txt', '\u00e4pfel.txt'],
    ['A\u0308PFEL.TXT', '\u00e4pfel.txt'],
    ['\u00dcn\u00efc\u00f8d\u00e9 \u76ee\u5f55', '\u00fcn\u00efc\u00f8d\u00e9 \u76ee\u5f55'],
    ['\u039f\u0394\u039f\u03a3', '\u03bf\u03b4\u03bf\u03c2'],
    ['\u1e9e', '\u00df'],
  ])('keys %j as %j', (name, key) => {
    expect(nameKey(name)).toBe(key);
  });

  it('makes names that differ only by case or composition one name', () => {
    expect(nameKey('caf\u00e9.txt')).toBe(nameKey('cafe\u0301.TXT'));
    expect(nameKey('\u00c4PFEL.txt')).toBe(nameKey('\u00e4pfel.txt'));
  });

  it('lowers without folding: ß and ss, ı and i, İ and i stay different names', () => {
    expect(nameKey('stra\u00dfe')).not.toBe(nameKey('strasse'));
    expect(nameKey('\u0131')).not.toBe(nameKey('i'));
    expect(nameKey('\u0130')).not.toBe(nameKey('i'));
    expect(nameKey('\u0130')).toBe('i\u0307');
  });
});
