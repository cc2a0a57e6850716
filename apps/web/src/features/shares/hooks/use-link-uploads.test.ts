// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as transport from '../api/upload-to-link';
import { LinkUploadFailure, type LinkUpload } from '../api/upload-to-link';
import { linkUploadError, useLinkUploads } from './use-link-uploads';

/** Each transfer the hook starts, to be settled by the test. */
const started: Array<{ upload: LinkUpload; resolve: () => void; reject: (error: unknown) => void }> = [];

vi.mock('../api/upload-to-link', async (original) => ({
  ...(await original<typeof transport>()),
  uploadToLink: (upload: LinkUpload) =>
    new Promise((resolve, reject) => {
      upload.signal.addEventListener('abort', () => reject(new DOMException('cancelled', 'AbortError')));
      started.push({ upload, resolve: () => resolve({ name: upload.file.name, size: upload.file.size }), reject });
    }),
}));

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

beforeEach(() => {
  started.length = 0;
});

describe('the files a visitor sends through a link', () => {
  it('sends them one at a time in the order given, with the name given and where they go', async () => {
    const onUploaded = vi.fn();
    const { result } = renderHook(() => useLinkUploads({ token: 'tok', access: 'grant', onUploaded }));
    act(() => result.current.setUploaderName('  Bob  '));
    act(() => result.current.add([file('a.txt'), file('b.txt')], 'sub'));

    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]!.upload).toMatchObject({ token: 'tok', access: 'grant', folderId: 'sub', uploaderName: 'Bob' });
    expect(started[0]!.upload.file.name).toBe('a.txt');
    expect(result.current.entries.map((entry) => entry.status)).toEqual(['uploading', 'queued']);

    act(() => started[0]!.upload.onProgress(5));
    expect(result.current.entries[0]!.sent).toBe(5);
    await act(async () => started[0]!.resolve());
    await waitFor(() => expect(started).toHaveLength(2));
    expect(started[1]!.upload.file.name).toBe('b.txt');
    expect(onUploaded).toHaveBeenCalledTimes(1);
    await act(async () => started[1]!.resolve());
    expect(result.current.entries.map((entry) => entry.status)).toEqual(['done', 'done']);
  });

  it('refuses a file over the largest size before sending it, and never offers to retry it', async () => {
    const { result } = renderHook(() => useLinkUploads({ token: 'tok', access: null, maxFileSize: 100 }));
    act(() => result.current.add([file('huge.bin', 101)], null));
    expect(result.current.entries[0]).toMatchObject({ status: 'failed', error: 'tooLarge' });
    act(() => result.current.retry(result.current.entries[0]!.id));
    expect(result.current.entries[0]!.status).toBe('failed');
    expect(started).toEqual([]);
  });

  it('cancels the one travelling, and sends a failed or cancelled one again on retry', async () => {
    const onLocked = vi.fn();
    const { result } = renderHook(() => useLinkUploads({ token: 'tok', access: null, onLocked }));
    act(() => result.current.add([file('a.txt')], null));
    await waitFor(() => expect(started).toHaveLength(1));
    const id = result.current.entries[0]!.id;

    await act(async () => result.current.cancel(id));
    expect(result.current.entries[0]!.status).toBe('cancelled');
    act(() => result.current.retry(id));
    await waitFor(() => expect(started).toHaveLength(2));

    await act(async () => started[1]!.reject(new LinkUploadFailure(507, 'QUOTA_EXCEEDED')));
    expect(result.current.entries[0]).toMatchObject({ status: 'failed', error: 'full' });
    act(() => result.current.retry(id));
    await waitFor(() => expect(started).toHaveLength(3));

    // The password's grant ran out: the page asks for it again.
    await act(async () => started[2]!.reject(new LinkUploadFailure(401, 'SHARE_PASSWORD_REQUIRED', true)));
    expect(result.current.entries[0]).toMatchObject({ status: 'failed', error: 'locked' });
    expect(onLocked).toHaveBeenCalledTimes(1);
  });
});

describe("a link upload's refusal as the visitor reads it", () => {
  it('names each refusal the server gives', () => {
    expect(linkUploadError(new LinkUploadFailure(413, 'FILE_TOO_LARGE'))).toBe('tooLarge');
    expect(linkUploadError(new LinkUploadFailure(507, 'QUOTA_EXCEEDED'))).toBe('full');
    expect(linkUploadError(new LinkUploadFailure(429))).toBe('tooMany');
    expect(linkUploadError(new LinkUploadFailure(410, 'SHARE_EXPIRED'))).toBe('gone');
    expect(linkUploadError(new LinkUploadFailure(404))).toBe('gone');
    expect(linkUploadError(new LinkUploadFailure(0))).toBe('network');
    expect(linkUploadError(new LinkUploadFailure(500))).toBe('failed');
    expect(linkUploadError(new Error('boom'))).toBe('failed');
  });

  it('asks for the password again when the grant ran out', () => {
    expect(linkUploadError(new LinkUploadFailure(401, undefined, true))).toBe('locked');
  });
});
