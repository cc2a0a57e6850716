import { describe, expect, it } from 'vitest';
import { createTransferBudget } from './transfer-budget.ts';

describe('createTransferBudget', () => {
  it('reserves up to its limit, refuses past it and takes back each release once', () => {
    const budget = createTransferBudget(100);
    const first = budget.take(60);
    const second = budget.take(40);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(budget.inUse).toBe(100);
    expect(budget.take(1)).toBeNull();
    expect(budget.take(0)).not.toBeNull();
    first?.();
    first?.();
    expect(budget.inUse).toBe(40);
    expect(budget.take(61)).toBeNull();
    expect(budget.take(60)).not.toBeNull();
    expect(budget.inUse).toBe(100);
  });
});
