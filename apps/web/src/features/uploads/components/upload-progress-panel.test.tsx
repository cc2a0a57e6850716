// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { SINGLE_REQUEST_MAX_BYTES } from '../upload-chunks';
import { type TransportOptions, UploadFailure } from '../upload-queue';
import { uploadQueue } from '../upload-store';
import { UploadProgressPanel } from './upload-progress-panel';

interface Pending extends TransportOptions {
  name: string;
  file: File;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
const pending: Pending[] = [];

// The real transports are XMLHttpRequest and tus-js-client to the server; here each upload waits for the test.
vi.mock('../api/upload-file', () => ({
  uploadFile: (file: File, _folderId: string | null, options: TransportOptions) =>
    new Promise((resolve, reject) => pending.push({ ...options, name: file.name, file, resolve, reject })),
}));
vi.mock('../api/tus-upload', () => ({
  createTusTransport: () => (file: File, _folderId: string | null, options: TransportOptions) =>
    new Promise((resolve, reject) => pending.push({ ...options, name: file.name, file, resolve, reject })),
  discardTusUpload: (_store: unknown, uploadUrl: string) => discarded.push(uploadUrl),
  uploadLockName: (uploadUrl: string) => `lock ${uploadUrl}`,
}));
const discarded: string[] = [];

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/api/subscriptions/plans'))
      return Response.json({
        plans: [
          { id: 'FREE', maxConcurrentUploads: 3 },
          { id: 'PRO', maxConcurrentUploads: 10 },
        ],
      });
    if (url.startsWith('/api/auth/profile')) return Response.json({ user: { id: 'user-1', firstName: 'Ada', plan: 'FREE' } });
    return Response.json({ userMaxFileSize: 107374182, userMaxFileSizeFormatted: '102.4 MB', userPlan: 'FREE' });
  });
  localStorage.setItem('token', 't');
});
afterEach(() => {
  act(() => uploadQueue.clear());
  pending.length = 0;
  discarded.length = 0;
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const file = (name: string, size: number) => new File([new Uint8Array(size)], name);
/** Large enough to travel over tus; its bytes are never read here. */
const largeFile = (name: string) => new File([new Blob([new Uint8Array(SINGLE_REQUEST_MAX_BYTES)])], name);

/** The panel, once the upload settings and the plan catalogue are in (the queue then runs the plan's number at once). */
async function renderPanel() {
  const result = renderWithProviders(<UploadProgressPanel />);
  await waitFor(() => {
    expect(result.queryClient.getQueryData(['billing', 'plans'])).toBeDefined();
    expect(result.queryClient.getQueryData(['uploads', 'config'])).toBeDefined();
  });
  return result;
}

describe('UploadProgressPanel', () => {
  it("runs as many uploads at once as the plan's entry in the catalogue allows", async () => {
    await renderPanel();
    act(() => {
      uploadQueue.add(['1', '2', '3', '4'].map((name) => ({ file: file(`${name}.bin`, 10), folderId: null })));
    });
    expect(pending.map((upload) => upload.name)).toEqual(['1.bin', '2.bin', '3.bin']);
  });

  it('shows nothing without uploads, then the count, the overall percent and each row', async () => {
    await renderPanel();
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();

    act(() => {
      uploadQueue.add([
        { file: file('a.bin', 1000), folderId: null },
        { file: file('b.bin', 3000), folderId: null },
      ]);
    });
    const panel = screen.getByRole('region', { name: 'Uploads' });
    expect(within(panel).getByRole('heading', { name: 'Uploading 2 file(s)' })).toBeTruthy();
    act(() => pending[0]!.onProgress(1000));
    act(() => pending[1]!.onProgress(1000));
    expect(within(panel).getByText('50% overall')).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'b.bin' })).getByText(/^2.93 KB · 33%/)).toBeTruthy();
  });

  it('minimises and expands, shows a failure with the server text or "Upload failed", and dismisses it', async () => {
    const user = userEvent.setup();
    await renderPanel();
    act(() => {
      uploadQueue.add([
        { file: file('quota.bin', 10), folderId: null },
        { file: file('broken.bin', 10), folderId: null },
      ]);
    });
    await act(async () => {
      pending[0]!.reject(new UploadFailure(507, 'Not enough storage: 1 MB free'));
      pending[1]!.reject(new UploadFailure(0, undefined));
    });
    expect(within(screen.getByRole('listitem', { name: 'quota.bin' })).getByRole('alert').textContent).toBe(
      'Not enough storage: 1 MB free',
    );
    expect(within(screen.getByRole('listitem', { name: 'broken.bin' })).getByRole('alert').textContent).toBe('Upload failed');

    await user.click(screen.getByRole('button', { name: 'Minimize' }));
    expect(screen.queryByRole('listitem', { name: 'quota.bin' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Expand' }));
    await user.click(within(screen.getByRole('listitem', { name: 'quota.bin' })).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('listitem', { name: 'quota.bin' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Uploading 1 file(s)' })).toBeTruthy();
  });

  it('closes everything with the close button, cancelling what still runs', async () => {
    const user = userEvent.setup();
    await renderPanel();
    act(() => {
      uploadQueue.add([{ file: file('running.bin', 10), folderId: null }]);
    });
    await user.click(screen.getByRole('button', { name: 'Close all uploads' }));
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
    expect(uploadQueue.busy).toBe(false);
  });

  it('pauses and resumes a large file from the keyboard, and says when the connection is lost', async () => {
    const user = userEvent.setup();
    await renderPanel();
    act(() => {
      uploadQueue.add([{ file: largeFile('film.mp4'), folderId: null }]);
    });
    const row = screen.getByRole('listitem', { name: 'film.mp4' });
    act(() => pending[0]!.onProgress(SINGLE_REQUEST_MAX_BYTES / 4));
    act(() => pending[0]!.onReconnecting!(true));
    expect(within(row).getByRole('status').textContent).toBe('Paused — reconnecting…');
    act(() => pending[0]!.onProgress(SINGLE_REQUEST_MAX_BYTES / 2));
    expect(within(row).queryByRole('status')).toBeNull();
    expect(within(row).getByText(/· 50%/)).toBeTruthy();

    within(row).getByRole('button', { name: 'Pause upload' }).focus();
    await user.keyboard('{Enter}');
    expect(pending[0]!.signal.aborted).toBe(true);
    expect(within(row).getByText('Paused')).toBeTruthy();
    expect(within(row).getByText(/· 50%/)).toBeTruthy();
    within(row).getByRole('button', { name: 'Resume upload' }).focus();
    await user.keyboard(' ');
    expect(pending).toHaveLength(2);
    expect(within(row).getByRole('button', { name: 'Pause upload' })).toBeTruthy();
  });

  it('offers an upload left unfinished before a reload, and resumes it only with the same file', async () => {
    const user = userEvent.setup();
    localStorage.setItem(
      'cloudvault.upload::user-1/12/report.pdf::k',
      JSON.stringify({
        size: 12,
        metadata: { filename: 'report.pdf', folderId: 'f1' },
        creationTime: new Date().toString(),
        uploadUrl: 'http://h/api/uploads/u1',
      }),
    );
    await renderPanel();
    const row = await screen.findByRole('listitem', { name: 'report.pdf' });
    expect(within(row).getByText(/Interrupted — pick the file again to resume/)).toBeTruthy();
    const input = row.querySelector<HTMLInputElement>('input[type=file]')!;

    await user.upload(input, file('report.pdf', 11));
    expect(within(row).getByRole('alert').textContent).toBe('report.pdf is not the same file: pick report.pdf (12 Bytes) to resume.');
    expect(pending).toHaveLength(0);

    await user.upload(input, file('report.pdf', 12));
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ name: 'report.pdf', resumeKey: 'http://h/api/uploads/u1' });
    await user.click(within(screen.getByRole('listitem', { name: 'report.pdf' })).getByRole('button', { name: 'Cancel upload' }));
    expect(pending[0]!.signal.aborted).toBe(true);
  });
});
