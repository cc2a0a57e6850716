import { describe, expect, it } from 'vitest';
import { linkRoleChoices, parseDownloadLimit, takesMessage } from './share-roles';

describe('linkRoleChoices', () => {
  it('offers uploads and editing on folders only', () => {
    expect(linkRoleChoices('folder')).toEqual(['view', 'view-only', 'upload', 'edit']);
    expect(linkRoleChoices('file')).toEqual(['view', 'view-only']);
  });
});

describe('parseDownloadLimit', () => {
  it('reads empty as no limit and a whole number as the limit', () => {
    expect(parseDownloadLimit('')).toBeNull();
    expect(parseDownloadLimit('  ')).toBeNull();
    expect(parseDownloadLimit(' 10 ')).toBe(10);
    expect(parseDownloadLimit('1000000')).toBe(1_000_000);
  });

  it('refuses what the server would refuse', () => {
    for (const text of ['0', '-1', '2.5', 'ten', '1e3', '1000001']) expect(parseDownloadLimit(text)).toBeUndefined();
  });
});

describe('takesMessage', () => {
  it('is the file request alone', () => {
    expect(takesMessage('upload')).toBe(true);
    expect(takesMessage('view')).toBe(false);
    expect(takesMessage('edit')).toBe(false);
  });
});
