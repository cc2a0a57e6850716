import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { describeNotification } from './notification-text';

beforeAll(async () => {
  await i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});

const notification = (type: 'folder_shared' | 'storage_alert' | 'new_sign_in' | 'password_changed', details: Record<string, string> = {}) => ({
  id: '1',
  type,
  details,
  read: false,
  createdAt: '2026-03-05T12:00:00.000Z',
});

describe('describeNotification', () => {
  it('reads every type the server sends', () => {
    const t = i18n.t.bind(i18n);
    expect(describeNotification(notification('folder_shared', { owner: 'Ada', folder: 'Trip' }), t)).toBe('Ada shared the folder "Trip" with you');
    expect(describeNotification(notification('storage_alert', { percent: '80', used: '400 MB', limit: '500 MB' }), t)).toBe(
      'Your storage is 80% full (400 MB of 500 MB)',
    );
    expect(describeNotification(notification('new_sign_in', { device: 'Chrome on Windows' }), t)).toBe('New sign-in from Chrome on Windows');
    expect(describeNotification(notification('password_changed'), t)).toBe('Your password was changed');
  });
});
