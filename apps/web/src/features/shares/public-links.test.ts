import { describe, expect, it } from 'vitest';
import { hasExpired, ownerName, publicDownloadHref, publicViewHref } from './public-links';

describe('public share links', () => {
  it('downloads the share or one file inside it, with the access grant when unlocked', () => {
    expect(publicDownloadHref('tok_en-1')).toBe('/api/public/shares/tok_en-1/download');
    expect(publicDownloadHref('tok', { fileId: 'f1' })).toBe('/api/public/shares/tok/files/f1/download');
    expect(publicDownloadHref('tok', { access: 'a.b+c' })).toBe('/api/public/shares/tok/download?access=a.b%2Bc');
    expect(publicDownloadHref('tok', { fileId: 'f1', access: null })).toBe('/api/public/shares/tok/files/f1/download');
  });

  it("draws a view-only link's files from the display route, never the download one", () => {
    expect(publicViewHref('tok')).toBe('/api/public/shares/tok/view');
    expect(publicViewHref('tok', { fileId: 'f1', access: 'a+b' })).toBe('/api/public/shares/tok/files/f1/view?access=a%2Bb');
  });

  it('names the owner with the last name only when the server gave it', () => {
    expect(ownerName({ firstName: 'Ada' })).toBe('Ada');
    expect(ownerName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
  });

  it('treats a past expiry as expired and none as never', () => {
    const now = new Date('2026-03-05T12:00:00Z');
    expect(hasExpired(null, now)).toBe(false);
    expect(hasExpired('2026-03-05T11:59:59Z', now)).toBe(true);
    expect(hasExpired('2026-03-05T12:00:00Z', now)).toBe(true);
    expect(hasExpired('2026-03-06T12:00:00Z', now)).toBe(false);
  });
});
