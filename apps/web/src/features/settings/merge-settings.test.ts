import { DEFAULT_SETTINGS } from '@cloudvault/contract/settings-defaults';
import { describe, expect, it } from 'vitest';
import { mergeSettings } from './merge-settings';

describe('mergeSettings', () => {
  it('gives the defaults when nothing loaded', () => {
    expect(mergeSettings(undefined)).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps loaded values and fills the missing keys of each group', () => {
    const merged = mergeSettings({ appearance: { theme: 'dark' }, storage: { deleteAfterDays: 7 }, privacy: null });
    expect(merged.appearance).toEqual({ theme: 'dark', language: 'en' });
    expect(merged.storage).toEqual({ autoDelete: false, deleteAfterDays: 7, compressionEnabled: true });
    expect(merged.privacy).toEqual(DEFAULT_SETTINGS.privacy);
    expect(merged.notifications).toEqual(DEFAULT_SETTINGS.notifications);
  });
});
