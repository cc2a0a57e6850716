import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatBytesIn } from '@cloudvault/contract/format';
import en from '../../locales/en.json';
import fr from '../../locales/fr.json';
import type { AppNotification } from '@cloudvault/contract/profile';
import { describeNotification } from './notification-text';

beforeAll(async () => {
  await i18n.init({ lng: 'en', resources: { en: { translation: en }, fr: { translation: fr } }, interpolation: { escapeValue: false } });
});

const notification = (type: AppNotification['type'], details: Record<string, string> = {}) => ({
  id: '1',
  type,
  details,
  read: false,
  createdAt: '2026-03-05T12:00:00.000Z',
});

describe('describeNotification', () => {
  it('reads every type the server sends', () => {
    const t = i18n.t.bind(i18n);
    const formatSize = (bytes: string) => formatBytesIn(bytes, 'en');
    expect(describeNotification(notification('folder_shared', { owner: 'Ada', folder: 'Trip' }), t, formatSize)).toBe(
      'Ada shared the folder "Trip" with you',
    );
    expect(describeNotification(notification('file_shared', { owner: 'Ada', file: 'plan.pdf' }), t, formatSize)).toBe(
      'Ada shared the file "plan.pdf" with you',
    );
    expect(
      describeNotification(
        notification('storage_alert', { percent: '80', usedBytes: '419430400', limitBytes: '524288000' }),
        t,
        formatSize,
      ),
    ).toBe('Your storage is 80% full (400 MB of 500 MB)');
    expect(describeNotification(notification('new_sign_in', { device: 'Chrome on Windows' }), t, formatSize)).toBe(
      'New sign-in from Chrome on Windows',
    );
    expect(describeNotification(notification('password_changed'), t, formatSize)).toBe('Your password was changed');
    expect(
      describeNotification(notification('file_request_uploads', { folder: 'Tax papers', count: '1', names: 'Bob' }), t, formatSize),
    ).toBe('Bob sent a file to your file request "Tax papers"');
    expect(
      describeNotification(
        notification('file_request_uploads', { folder: 'Tax papers', count: '3', names: 'Bob, Someone' }),
        t,
        formatSize,
      ),
    ).toBe('Bob, Someone sent 3 files to your file request "Tax papers"');
  });

  it("writes a storage alert's sizes in the reader's language, and keeps the text of older alerts", () => {
    const t = i18n.getFixedT('fr');
    const formatSize = (bytes: string) => formatBytesIn(bytes, 'fr');
    expect(
      describeNotification(
        notification('storage_alert', { percent: '90', usedBytes: '471859200', limitBytes: '524288000' }),
        t,
        formatSize,
      ),
    ).toBe('Votre stockage est plein à 90 % (450 Mo sur 500 Mo)');
    expect(describeNotification(notification('storage_alert', { percent: '90', used: '450 MB', limit: '500 MB' }), t, formatSize)).toBe(
      'Votre stockage est plein à 90 % (450 MB sur 500 MB)',
    );
  });
});
