import { describe, expect, it } from 'vitest';
import type { Plan } from '@cloudvault/contract/plans';
import { recommendation } from './recommendation';

const GB = 1024 ** 3;
const plan = (id: Plan['id'], price: number, storageLimit: number): Plan => ({
  id,
  name: id,
  price,
  description: '',
  features: [],
  popular: false,
  storageLimit,
  maxFileSize: null,
  prioritySupport: false,
  maxConcurrentUploads: null,
});
const free = plan('FREE', 0, 524_288_000);
const pro = plan('PRO', 9.99, 100 * GB);
const business = plan('PREMIUM', 19.99, 1024 * GB);
// Listed by price, the API's order; the offer goes by storage.
const plans = [free, business, pro];

const on = (planId: Plan['id'], percent: number) => {
  const storageLimit = plans.find((entry) => entry.id === planId)!.storageLimit;
  return recommendation({ percent, planId, storageLimit }, plans);
};

describe('recommendation', () => {
  it('appears on Free from 50 %', () => {
    expect(on('FREE', 49.9)).toBeNull();
    expect(on('FREE', 50)).toEqual({ level: 'recommended', plan: pro });
  });

  it('appears on paid plans from 80 %', () => {
    expect(on('PRO', 79.9)).toBeNull();
    expect(on('PRO', 80)).toEqual({ level: 'recommended', plan: business });
  });

  it("is titled 'Storage Almost Full!' from 90 %", () => {
    expect(on('FREE', 89.9)?.level).toBe('recommended');
    expect(on('FREE', 90)?.level).toBe('almostFull');
    expect(on('PRO', 100)?.level).toBe('almostFull');
  });

  it('offers the next plan with a larger storage limit, none above the largest', () => {
    expect(on('FREE', 95)?.plan).toBe(pro);
    expect(on('PREMIUM', 95)).toEqual({ level: 'almostFull', plan: null });
  });
});
