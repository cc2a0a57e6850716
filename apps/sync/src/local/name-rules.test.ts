import { cleanItemName } from '@cloudvault/contract/validation';
import { describe, expect, it } from 'vitest';
import {
  CLASH_MARKER,
  diskCanHold,
  firstFreeMarkedName,
  keyOf,
  markedName,
  RENAMED_MARKER,
  salvageName,
  serverWouldChange,
  splitExtension,
  windowsSafeBase,
} from './name-rules.ts';

describe('name rules', () => {
  it('knows what each disk holds', () => {
    expect(diskCanHold('é'.repeat(127), 'linux')).toBe(true);
    expect(diskCanHold('é'.repeat(128), 'linux')).toBe(false); // 256 bytes
    expect(diskCanHold('é'.repeat(200), 'win32')).toBe(true);
    for (const bad of ['a:b', 'what?', 'CON', 'con.txt', 'LPT1', 'trailing.', 'trailing ', 'a|b'])
      expect(diskCanHold(bad, 'win32'), bad).toBe(false);
    for (const good of ['CONSOLE.txt', 'a.b', 'COM10']) expect(diskCanHold(good, 'win32'), good).toBe(true);
  });

  it('tells the names the server would store otherwise', () => {
    for (const same of ['a.txt', 'Résumé.pdf', 'e\u0301.txt', '👨‍👩‍👧.png']) expect(serverWouldChange(same), same).toBe(false);
    for (const changed of [' a.txt', 'a.txt ', 'a\\b.txt', 'zero\u200bwidth', '..', 'tab\there'])
      expect(serverWouldChange(changed), changed).toBe(true);
  });

  it('keys names as the server does, case and Unicode form folded', () => {
    expect(keyOf('A.TXT')).toBe(keyOf('a.txt'));
    expect(keyOf('E\u0301.txt')).toBe(keyOf('é.txt'));
  });

  it('marks names before the last extension and keeps them within both limits', () => {
    expect(splitExtension('report.final.pdf')).toEqual(['report.final', '.pdf']);
    expect(splitExtension('.bashrc')).toEqual(['.bashrc', '']);
    expect(markedName('a.txt', CLASH_MARKER, 1, 'linux')).toBe('a (name clash 1).txt');
    expect(markedName('bad_name.txt', RENAMED_MARKER, 1, 'linux')).toBe('bad_name (renamed).txt');
    expect(markedName('bad_name.txt', RENAMED_MARKER, 2, 'linux')).toBe('bad_name (renamed 2).txt');
    const long = markedName(`${'é'.repeat(200)}.txt`, RENAMED_MARKER, 1, 'linux');
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255);
    expect(long.endsWith('é (renamed).txt')).toBe(true);
  });

  it('finds the first marked name nobody holds', () => {
    const taken = new Set(['a (name clash 1).txt', 'a (name clash 2).txt']);
    expect(firstFreeMarkedName('a.txt', CLASH_MARKER, (c) => taken.has(c), 'linux')).toBe('a (name clash 3).txt');
  });

  it('salvages names the server refuses and makes server names safe for Windows', () => {
    expect(salvageName('\u200b')).toBe('unnamed');
    expect(salvageName('in\u200bvisible')).toBe('invisible');
    expect(windowsSafeBase('a:b?.')).toBe('a_b_');
    const safe = firstFreeMarkedName(windowsSafeBase('CON.txt'), 'renamed on this disk', () => false, 'win32');
    expect(safe).toBe('CON (renamed on this disk).txt');
    expect(diskCanHold(safe, 'win32') && cleanItemName(safe) === safe).toBe(true);
  });
});
