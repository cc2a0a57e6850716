import { describe, expect, it } from 'vitest';
import { neighbours, successorOf } from './neighbours';

const files = ['a', 'b', 'c'].map((id) => ({ id }));

describe('moving between the files of a folder', () => {
  it('gives the previous and next file, and nothing beyond either end', () => {
    expect(neighbours(files, 'b')).toEqual({ previous: { id: 'a' }, next: { id: 'c' }, index: 1 });
    expect(neighbours(files, 'a').previous).toBeNull();
    expect(neighbours(files, 'c').next).toBeNull();
  });

  it('knows nothing around a file that is not in the list', () => {
    expect(neighbours(files, 'x')).toEqual({ previous: null, next: null, index: -1 });
  });

  it('goes on with the next file when the shown one leaves the list, else the one before', () => {
    expect(successorOf(files, [{ id: 'a' }, { id: 'c' }], 'b')).toEqual({ id: 'c' });
    expect(successorOf(files, [{ id: 'a' }, { id: 'b' }], 'c')).toEqual({ id: 'b' });
    expect(successorOf(files, [], 'b')).toBeNull();
  });
});
