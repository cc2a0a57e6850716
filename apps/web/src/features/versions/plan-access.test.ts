import { describe, expect, it } from 'vitest';
import { includesVersioning } from './plan-access';

describe('includesVersioning', () => {
  it('is a Business feature', () => {
    expect(includesVersioning('PREMIUM')).toBe(true);
    expect(includesVersioning('PRO')).toBe(false);
    expect(includesVersioning('FREE')).toBe(false);
  });
});
