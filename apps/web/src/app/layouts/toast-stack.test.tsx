// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import i18n, { loadAppStrings } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import ToastStack from './toast-stack';

beforeAll(async () => {
  // jsdom has no media queries: a desktop.
  window.matchMedia = ((query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  })) as unknown as typeof window.matchMedia;
  await loadAppStrings();
});

afterEach(async () => {
  act(() => toast.remove());
  cleanup();
  await i18n.changeLanguage('en');
});

function renderStack() {
  return render(
    <I18nextProvider i18n={i18n}>
      <ToastStack />
    </I18nextProvider>,
  );
}

/** The texts of the toasts showing now, newest first. */
const shownTexts = () => [...document.querySelectorAll('[data-toast="shown"] [role="status"]')].map((element) => element.textContent);

describe('the toast stack', () => {
  it('merges a group into one toast that counts', async () => {
    renderStack();
    const created = () =>
      notify.success('dashboard.createFolder.success', { group: 'folder-created', many: 'dashboard.createFolder.successMany' });
    act(() => void created());
    await screen.findByText('Folder created');
    act(() => void created());
    act(() => void created());
    await screen.findByText('3 folders created');
    expect(shownTexts()).toEqual(['3 folders created']);
  });

  it('merges the same toast without a plural with a count, and keeps toasts of other values apart', async () => {
    renderStack();
    act(() => void notify.success('dashboard.rename.success', { values: { name: 'a' } }));
    act(() => void notify.success('dashboard.rename.success', { values: { name: 'a' } }));
    act(() => void notify.success('dashboard.rename.success', { values: { name: 'b' } }));
    await waitFor(() => expect(shownTexts()).toEqual(['Renamed to “b”', 'Renamed to “a” ×2']));
  });

  it('shows at most three, newest first', async () => {
    renderStack();
    for (const name of ['one', 'two', 'three', 'four']) act(() => void notify.success('dashboard.rename.success', { values: { name } }));
    await waitFor(() => expect(shownTexts()).toEqual(['Renamed to “four”', 'Renamed to “three”', 'Renamed to “two”']));
  });

  it('translates a toast when it shows, so a language switched after it was raised applies', async () => {
    renderStack();
    act(() => void notify.success('settings.updated'));
    await screen.findByText('Settings updated successfully');
    await act(() => i18n.changeLanguage('de'));
    await screen.findByText('Einstellungen erfolgreich aktualisiert');
  });
});
