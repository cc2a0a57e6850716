import { describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { remainingTime } from './remaining-time';
import { remainingTimeText } from './upload-text';

describe('remainingTime', () => {
  it('uses seconds under a minute, minutes under an hour, hours beyond', () => {
    expect(remainingTime(0.2)).toEqual({ unit: 'seconds', value: 1 });
    expect(remainingTime(42.1)).toEqual({ unit: 'seconds', value: 43 });
    expect(remainingTime(59.9)).toEqual({ unit: 'seconds', value: 60 });
    expect(remainingTime(60)).toEqual({ unit: 'minutes', value: 1 });
    expect(remainingTime(61)).toEqual({ unit: 'minutes', value: 2 });
    expect(remainingTime(3599)).toEqual({ unit: 'minutes', value: 60 });
    expect(remainingTime(3600)).toEqual({ unit: 'hours', value: 1 });
    expect(remainingTime(5400)).toEqual({ unit: 'hours', value: 1.5 });
  });

  it('is unknown before it can be measured', () => {
    expect(remainingTime(null)).toBeNull();
    expect(remainingTime(Number.POSITIVE_INFINITY)).toBeNull();
    expect(remainingTime(-1)).toBeNull();
  });

  it('reads as text', () => {
    const t = i18n.t.bind(i18n);
    expect(remainingTimeText(t, 1)).toBe('1 second left');
    expect(remainingTimeText(t, 30)).toBe('30 seconds left');
    expect(remainingTimeText(t, 60)).toBe('1 minute left');
    expect(remainingTimeText(t, 150)).toBe('3 minutes left');
    expect(remainingTimeText(t, 3600)).toBe('1 hour left');
    expect(remainingTimeText(t, 9000)).toBe('2.5 hours left');
    expect(remainingTimeText(t, null)).toBe('');
  });
});
