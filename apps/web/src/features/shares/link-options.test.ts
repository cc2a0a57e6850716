import { describe, expect, it } from 'vitest';
import { expiryChoices, lifetimeUnit, linkOptionsFor, linkPasswordTooShort } from './link-options';

describe('link options', () => {
  it('offers passwords and long links on paid plans only', () => {
    expect(linkOptionsFor('FREE')).toEqual({ extras: false, maxHours: 24 });
    expect(linkOptionsFor(undefined)).toEqual({ extras: false, maxHours: 24 });
    expect(linkOptionsFor('PRO')).toEqual({ extras: true, maxHours: 720 });
    expect(linkOptionsFor('PREMIUM')).toEqual({ extras: true, maxHours: 720 });
  });

  it('lists the lifetimes within the limit, none of them endless', () => {
    expect(expiryChoices(24)).toEqual([1, 24]);
    expect(expiryChoices(720)).toEqual([1, 24, 72, 168, 720]);
  });

  it('names a lifetime in days when it is whole days', () => {
    expect(lifetimeUnit(1)).toEqual({ unit: 'hours', count: 1 });
    expect(lifetimeUnit(36)).toEqual({ unit: 'hours', count: 36 });
    expect(lifetimeUnit(24)).toEqual({ unit: 'days', count: 1 });
    expect(lifetimeUnit(720)).toEqual({ unit: 'days', count: 30 });
  });

  it('refuses a link password shorter than an account password, and takes none at all', () => {
    expect(linkPasswordTooShort('')).toBe(false);
    expect(linkPasswordTooShort('12345')).toBe(true);
    expect(linkPasswordTooShort('123456')).toBe(false);
  });
});
