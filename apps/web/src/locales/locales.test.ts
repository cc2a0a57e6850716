import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@cloudvault/contract/languages';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import zh from './zh.json';

type Tree = { [key: string]: string | Tree };
const locales: Record<(typeof LANGUAGES)[number], Tree> = { en, es, fr, de, zh };
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [inner, text] of flatten(value, path)) entries.set(inner, text);
  }
  return entries;
}

/** The {{placeholders}} of a text, sorted: a translation must fill in the same values. */
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1]).sort();

/**
 * Keys without their plural suffix: each language has the plural forms its own grammar
 * needs (Chinese only `_other`, English `_one` and `_other`), so those are compared apart.
 */
const baseKeys = (keys: Iterable<string>) => new Set([...keys].map((key) => key.replace(PLURAL, '')));

const english = flatten(en);

describe.each(LANGUAGES.filter((language) => language !== 'en'))('the %s interface', (language) => {
  const translated = flatten(locales[language]);

  it('has every key of en.json and no other', () => {
    const expected = [...baseKeys(english.keys())].sort();
    expect([...baseKeys(translated.keys())].sort()).toEqual(expected);
  });

  it("has each plural form its language's grammar uses", () => {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    const plurals = [...baseKeys([...english.keys()].filter((key) => PLURAL.test(key)))];
    const missing = plurals.flatMap((base) =>
      categories.filter((category) => !translated.has(`${base}_${category}`)).map((category) => `${base}_${category}`),
    );
    expect(missing).toEqual([]);
  });

  it('fills in the same placeholders as English and leaves no text empty', () => {
    const wrong = [...translated].filter(([key, text]) => {
      if (!text.trim()) return true;
      const source = english.get(key) ?? english.get(key.replace(PLURAL, '_other'));
      if (source === undefined) return false; // the key test above names it
      const needed = new Set(placeholders(source));
      const used = new Set(placeholders(text));
      // A plural form may spell the number out ('un élément'): count is optional there.
      if (PLURAL.test(key)) {
        needed.delete('count');
        used.delete('count');
      }
      return [...needed].sort().join() !== [...used].sort().join();
    });
    expect(wrong.map(([key]) => key)).toEqual([]);
  });
});
