// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { driveKeys } from '../../../lib/query-keys';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { CopyToMyFilesButton } from './copy-to-my-files-button';

/** The texts of the toasts showing now, newest first. */
const toastTexts = () => [...document.querySelectorAll('[data-rht-toaster] [role="status"]')].map((element) => element.textContent);

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  window.localStorage.setItem('token', 'a-session');
  vi.stubGlobal('fetch', fetchMock);
  // react-hot-toast asks for prefers-reduced-motion; jsdom has no media queries.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('Copy to My Files', () => {
  it('copies a shared folder into the root of My Files, says so and refreshes the drive', async () => {
    fetchMock.mockResolvedValue(Response.json({ folder: { id: 'copy' } }, { status: 201 }));
    const { queryClient } = renderWithProviders(
      <>
        <CopyToMyFilesButton item={{ kind: 'folder', id: 'f1' }} name="Team" />
        <Toaster />
      </>,
    );
    queryClient.setQueryData(driveKeys.folders(null), []);
    queryClient.setQueryData(driveKeys.storage, { used: 0 });

    await userEvent.click(screen.getByRole('button', { name: 'Copy Team to My Files' }));
    await waitFor(() => expect(toastTexts()).toEqual(['Copied to My Files']));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect([String(url), init?.method, JSON.parse(String(init?.body))]).toEqual(['/api/user/folders/f1/copy', 'POST', { parentId: null }]);
    expect(queryClient.getQueryState(driveKeys.folders(null))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(driveKeys.storage)?.isInvalidated).toBe(true);
  });

  it("shows the server's reason when the copy does not fit the quota", async () => {
    const reason = 'Not enough storage: 4.9 KB needed, 1 KB free.';
    fetchMock.mockResolvedValue(Response.json({ error: reason, code: 'QUOTA_EXCEEDED' }, { status: 507 }));
    renderWithProviders(
      <>
        <CopyToMyFilesButton item={{ kind: 'file', id: 'a1' }} name="plan.bin" />
        <Toaster />
      </>,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Copy plan.bin to My Files' }));
    await waitFor(() => expect(toastTexts()).toEqual([reason]));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect([String(url), JSON.parse(String(init?.body))]).toEqual(['/api/files/a1/copy', { folderId: null }]);
  });
});
