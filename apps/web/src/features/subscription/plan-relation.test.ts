import { describe, expect, it } from 'vitest';
import { planRelation } from './plan-relation';

const GB = 1024 ** 3;
const free = { id: 'FREE', price: 0, storageLimit: 524_288_000 } as const;
const pro = { id: 'PRO', price: 9.99, storageLimit: 100 * GB } as const;
const business = { id: 'PREMIUM', price: 19.99, storageLimit: 1024 * GB } as const;

describe('planRelation', () => {
  it('marks the current plan', () => {
    expect(planRelation(pro, pro)).toBe('current');
  });

  it('offers every plan as an upgrade when there is no current plan', () => {
    expect(planRelation(free, null)).toBe('upgrade');
    expect(planRelation(business, undefined)).toBe('upgrade');
  });

  it('is an upgrade when the plan costs more or stores more', () => {
    expect(planRelation(pro, free)).toBe('upgrade');
    expect(planRelation(business, pro)).toBe('upgrade');
    expect(planRelation({ id: 'PREMIUM', price: 9.99, storageLimit: 200 * GB }, pro)).toBe('upgrade');
    expect(planRelation({ id: 'PREMIUM', price: 15, storageLimit: 10 * GB }, pro)).toBe('upgrade');
  });

  it('is a downgrade only when both price and storage are lower', () => {
    expect(planRelation(free, pro)).toBe('downgrade');
    expect(planRelation(pro, business)).toBe('downgrade');
    expect(planRelation(free, business)).toBe('downgrade');
  });

  it('is unavailable when it is neither (cheaper at equal storage, or the same price and storage)', () => {
    expect(planRelation({ id: 'PREMIUM', price: 5, storageLimit: 100 * GB }, pro)).toBe('unavailable');
    expect(planRelation({ id: 'PREMIUM', price: 9.99, storageLimit: 10 * GB }, pro)).toBe('unavailable');
    expect(planRelation({ id: 'PREMIUM', price: 9.99, storageLimit: 100 * GB }, pro)).toBe('unavailable');
  });
});
