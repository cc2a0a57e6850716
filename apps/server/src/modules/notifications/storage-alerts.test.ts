import { describe, expect, it } from 'vitest';
import { storageAlertCrossed } from './storage-alerts.ts';

describe('storageAlertCrossed', () => {
  it('names the highest threshold crossed upwards, once', () => {
    expect(storageAlertCrossed({ before: 70, after: 85, limit: 100 })).toBe(80);
    expect(storageAlertCrossed({ before: 70, after: 95, limit: 100 })).toBe(90);
    expect(storageAlertCrossed({ before: 85, after: 89, limit: 100 })).toBeNull();
    expect(storageAlertCrossed({ before: 80, after: 81, limit: 100 })).toBeNull();
    expect(storageAlertCrossed({ before: 79, after: 80, limit: 100 })).toBe(80);
    expect(storageAlertCrossed({ before: 95, after: 99, limit: 100 })).toBeNull();
    expect(storageAlertCrossed({ before: 0, after: 10, limit: 0 })).toBeNull();
  });
});
