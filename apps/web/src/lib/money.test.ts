import { describe, expect, it } from 'vitest';
import { formatAmount, formatPrice } from './money';

describe('money', () => {
  it('shows amounts with two decimals and the currency in upper case', () => {
    expect(formatAmount(9.99, 'usd')).toBe('9.99 USD');
    expect(formatAmount(20, 'eur')).toBe('20.00 EUR');
    expect(formatAmount(-9.99, 'usd')).toBe('-9.99 USD');
    expect(formatAmount(0.1 + 0.2, 'usd')).toBe('0.30 USD');
  });

  it('shows plan prices in dollars, cents only when there are any', () => {
    expect(formatPrice(0, 'en')).toBe('$0');
    expect(formatPrice(9.99, 'en')).toBe('$9.99');
    expect(formatPrice(20, 'en')).toBe('$20');
  });
});
