import { describe, expect, it } from 'vitest';
import { arrivalNotices } from './arrival-notices';

describe('arrivalNotices', () => {
  it('reads updated=true and session_id and removes both, keeping other parameters', () => {
    const notices = arrivalNotices(new URLSearchParams('updated=true&session_id=ps_123&tab=plans'));
    expect(notices.updated).toBe(true);
    expect(notices.portalReturn).toBe(true);
    expect(notices.remaining?.toString()).toBe('tab=plans');
  });

  it('removes an updated parameter that is not true without announcing it', () => {
    const notices = arrivalNotices(new URLSearchParams('updated=false'));
    expect(notices).toMatchObject({ updated: false, portalReturn: false });
    expect(notices.remaining?.toString()).toBe('');
  });

  it('leaves an address without them alone', () => {
    expect(arrivalNotices(new URLSearchParams('tab=usage'))).toEqual({ updated: false, portalReturn: false, remaining: null });
  });
});
