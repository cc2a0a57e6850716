import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '@cloudvault/contract/profile';
import en from '../../locales/en.json';
import { describeActivity } from './activity-text';

beforeAll(async () => {
  await i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});

const share = (details: Record<string, string>): ActivityEntry => ({ type: 'share', details, createdAt: '2026-12-01T10:00:00.000Z' });

describe('activity in words', () => {
  it('names the file or folder a link or a private share was made for', () => {
    const t = i18n.t.bind(i18n);
    expect(describeActivity(share({ kind: 'link', item: 'file', name: 'report.pdf' }), t)).toBe(
      'Created a share link for the file report.pdf',
    );
    expect(describeActivity(share({ kind: 'link', item: 'folder', name: 'Photos' }), t)).toBe('Created a share link for the folder Photos');
    expect(describeActivity(share({ kind: 'private', item: 'file', name: 'report.pdf', email: 'bob@example.com' }), t)).toBe(
      'Shared the file report.pdf with bob@example.com',
    );
    expect(describeActivity(share({ kind: 'private', item: 'folder', name: 'Photos', email: 'bob@example.com' }), t)).toBe(
      'Shared the folder Photos with bob@example.com',
    );
  });

  it("counts a sync client's batch of uploads, written as one entry", () => {
    const t = i18n.t.bind(i18n);
    const upload = (details: Record<string, string>): ActivityEntry => ({ type: 'upload', details, createdAt: '2026-12-01T10:00:00.000Z' });
    expect(describeActivity(upload({ name: 'a.txt', size: '40 KB', files: '10' }), t)).toBe('Uploaded a.txt and 9 other files (40 KB)');
    expect(describeActivity(upload({ name: 'a.txt', size: '4 KB', files: '1' }), t)).toBe('Uploaded a.txt (4 KB)');
    expect(describeActivity(upload({ name: 'a.txt', size: '4 KB' }), t)).toBe('Uploaded a.txt (4 KB)');
  });

  it('names what was renamed, moved or put in Trash, as it was named then', () => {
    const t = i18n.t.bind(i18n);
    const entry = (type: 'rename' | 'move' | 'delete', details: Record<string, string>): ActivityEntry => ({
      type,
      details,
      createdAt: '2026-12-01T10:00:00.000Z',
    });
    expect(describeActivity(entry('rename', { item: 'file', from: 'draft.txt', name: 'final.txt' }), t)).toBe(
      'Renamed the file draft.txt to final.txt',
    );
    expect(describeActivity(entry('move', { item: 'folder', name: 'Photos' }), t)).toBe('Moved the folder Photos');
    expect(describeActivity(entry('delete', { item: 'file', name: 'final.txt' }), t)).toBe('Moved the file final.txt to Trash');
  });

  it('still reads entries recorded before they kept the name', () => {
    const t = i18n.t.bind(i18n);
    expect(describeActivity(share({ kind: 'link', item: 'file' }), t)).toBe('Created a share link for a file');
  });
});
