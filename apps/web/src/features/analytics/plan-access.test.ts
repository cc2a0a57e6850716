import { describe, expect, it } from 'vitest';
import { includesAnalytics } from './plan-access';

describe('includesAnalytics', () => {
  it('is a Business feature', () => {
    expect(includesAnalytics('PREMIUM')).toBe(true);
    expect(includesAnalytics('PRO')).toBe(false);
    expect(includesAnalytics('FREE')).toBe(false);
  });
});
