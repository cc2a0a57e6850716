import { describe, expect, it } from 'vitest';
import { rangeKeys } from './selection-range';

const order = ['folder:a', 'folder:b', 'file:c', 'file:d', 'file:e'];

describe('rangeKeys', () => {
  it('runs from the anchor to the clicked item, both included, in the shown order', () => {
    expect(rangeKeys(order, 'folder:b', 'file:d')).toEqual(['folder:b', 'file:c', 'file:d']);
  });

  it('runs backwards as well, still in the shown order', () => {
    expect(rangeKeys(order, 'file:e', 'folder:b')).toEqual(['folder:b', 'file:c', 'file:d', 'file:e']);
  });

  it('is the clicked item alone when it is the anchor, when there is no anchor or when the anchor is not shown', () => {
    expect(rangeKeys(order, 'file:c', 'file:c')).toEqual(['file:c']);
    expect(rangeKeys(order, null, 'file:c')).toEqual(['file:c']);
    expect(rangeKeys(order, 'file:filtered-out', 'file:c')).toEqual(['file:c']);
  });

  it('is nothing for an item not shown', () => {
    expect(rangeKeys(order, 'file:c', 'file:gone')).toEqual([]);
  });
});
