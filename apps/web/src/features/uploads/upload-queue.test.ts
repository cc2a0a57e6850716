import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPLETED_ROW_MS, PAUSE_REASON, type TransportOptions, UploadFailure, UploadQueue, type UploadTransport } from './upload-queue';
import { FALLBACK_UPLOAD_CONCURRENCY, uploadConcurrency } from './upload-limits';

interface Call extends TransportOptions {
  name: string;
  file: File;
  folderId: string | null;
  resolve: (value: string) => void;
  reject: (error: unknown) => void;
}

/** A transport whose uploads finish when the test says so. */
function controlledTransport() {
  const calls: Call[] = [];
  const transport: UploadTransport<string> = (file, folderId, options) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ ...options, name: file.name, file, folderId, resolve, reject });
    });
  return { calls, transport };
}

const file = (name: string, size = 1000) => new File([new Uint8Array(size)], name);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('UploadQueue', () => {
  it('runs at most `concurrency` uploads at once and starts the next as one finishes', async () => {
    const { calls, transport } = controlledTransport();
    const queue = new UploadQueue({ transport, concurrency: 3 });
    queue.add(Array.from({ length: 7 }, (_, i) => ({ file: file(`f${i}.txt`), folderId: 'dir' })));

    const statuses = () => queue.getSnapshot().map((entry) => entry.status);
    expect(calls.map((call) => call.name)).toEqual(['f0.txt', 'f1.txt', 'f2.txt']);
    expect(statuses().filter((status) => status === 'uploading')).toHaveLength(3);
    expect(statuses().filter((status) => status === 'queued')).toHaveLength(4);

    calls[1]!.resolve('ok');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((call) => call.name)).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt']);
    expect(statuses().filter((status) => status === 'uploading')).toHaveLength(3);

    // Never more than three in flight, whatever order they finish in.
    for (let i = 0; i < 7; i += 1) {
      const pending = calls.filter((call, index) => index !== 1 && !(call as { done?: boolean }).done);
      expect(queue.getSnapshot().filter((entry) => entry.status === 'uploading').length).toBeLessThanOrEqual(3);
      const next = pending[0];
      if (!next) break;
      (next as { done?: boolean }).done = true;
      next.resolve('ok');
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(calls).toHaveLength(7);
    expect(calls.every((call) => call.folderId === 'dir')).toBe(true);
  });

  it('summarises a batch once every file has succeeded or failed, and cancelled files count neither way', async () => {
    const { calls, transport } = controlledTransport();
    const onBatchSettled = vi.fn();
    const onFailed = vi.fn();
    const queue = new UploadQueue({ transport, concurrency: 2, onBatchSettled, onFailed });
    queue.add([
      { file: file('a'), folderId: null },
      { file: file('b'), folderId: null },
      { file: file('c'), folderId: null },
    ]);

    calls[0]!.resolve('ok');
    await vi.advanceTimersByTimeAsync(0);
    calls[1]!.reject(new UploadFailure(507, 'Not enough storage: 1 MB free'));
    await vi.advanceTimersByTimeAsync(0);
    expect(onFailed).toHaveBeenCalledWith(expect.objectContaining({ name: 'b', status: 'error', error: 'Not enough storage: 1 MB free' }));
    expect(onBatchSettled).not.toHaveBeenCalled();

    const third = queue.getSnapshot().find((entry) => entry.name === 'c')!;
    expect(third.status).toBe('uploading');
    queue.cancel(third.id);
    expect(calls[2]!.signal.aborted).toBe(true);
    expect(onBatchSettled).toHaveBeenCalledWith(expect.objectContaining({ succeeded: 1, failed: 1 }));
    expect(queue.getSnapshot().map((entry) => entry.name)).toEqual(['a', 'b']);
  });

  it('removes a completed row after 3 s; a failed row stays until dismissed', async () => {
    const { calls, transport } = controlledTransport();
    const queue = new UploadQueue({ transport, concurrency: 3 });
    queue.add([
      { file: file('done'), folderId: null },
      { file: file('broken'), folderId: null },
    ]);
    calls[0]!.resolve('ok');
    calls[1]!.reject(new UploadFailure(500, undefined));
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getSnapshot().map((entry) => [entry.name, entry.status, entry.error])).toEqual([
      ['done', 'success', null],
      ['broken', 'error', null],
    ]);
    await vi.advanceTimersByTimeAsync(COMPLETED_ROW_MS - 1);
    expect(queue.getSnapshot()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(queue.getSnapshot().map((entry) => entry.name)).toEqual(['broken']);
    queue.dismiss(queue.getSnapshot()[0]!.id);
    expect(queue.getSnapshot()).toHaveLength(0);
  });

  it('cancels a waiting file without starting it, and clear() aborts everything', () => {
    const { calls, transport } = controlledTransport();
    const queue = new UploadQueue({ transport, concurrency: 1 });
    queue.add([
      { file: file('one'), folderId: null },
      { file: file('two'), folderId: null },
      { file: file('three'), folderId: null },
    ]);
    queue.cancel(queue.getSnapshot()[1]!.id);
    expect(queue.getSnapshot().map((entry) => entry.name)).toEqual(['one', 'three']);
    queue.clear();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(queue.getSnapshot()).toHaveLength(0);
    expect(queue.busy).toBe(false);
  });

  it('measures speed and remaining time once a second', async () => {
    const { calls, transport } = controlledTransport();
    const queue = new UploadQueue({ transport, concurrency: 1 });
    queue.add([{ file: file('big', 10_000), folderId: null }]);
    calls[0]!.onProgress(1000);
    expect(queue.getSnapshot()[0]).toMatchObject({ loaded: 1000, speed: null, remainingSeconds: null });
    await vi.advanceTimersByTimeAsync(1000);
    expect(queue.getSnapshot()[0]).toMatchObject({ speed: 1000, remainingSeconds: 9 });
  });

  it('retries a file the server refused as one too many at once (429)', async () => {
    const { calls, transport } = controlledTransport();
    const onFailed = vi.fn();
    const queue = new UploadQueue({ transport, concurrency: 1, onFailed });
    queue.add([{ file: file('busy'), folderId: null }]);
    calls[0]!.reject(new UploadFailure(429, 'The Free plan uploads 3 files at a time.'));
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getSnapshot()[0]!.status).toBe('queued');
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(2);
    calls[1]!.resolve('ok');
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getSnapshot()[0]!.status).toBe('success');
    expect(onFailed).not.toHaveBeenCalled();
  });
});

describe('UploadQueue: resumable rows', () => {
  const resumable = (size: number) => size >= 100;

  it('pauses a resumable upload (the server keeps it), frees its slot, and resumes it from where it was', async () => {
    const { calls, transport } = controlledTransport();
    const queue = new UploadQueue({ transport, concurrency: 1, resumable });
    queue.add([
      { file: file('big', 1000), folderId: 'f' },
      { file: file('next', 1000), folderId: null },
    ]);
    const [big] = queue.getSnapshot();
    expect(big).toMatchObject({ resumable: true, status: 'uploading' });
    calls[0]!.onResumeKey!('http://h/api/uploads/1');
    calls[0]!.onProgress(400);

    queue.pause(big!.id);
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[0]!.signal.reason).toBe(PAUSE_REASON);
    expect(queue.getSnapshot().map((entry) => entry.status)).toEqual(['paused', 'uploading']);
    expect(queue.getSnapshot()[0]!.loaded).toBe(400);
    // The aborted transfer's rejection changes nothing.
    calls[0]!.reject(new DOMException('stopped', 'AbortError'));
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getSnapshot()[0]!.status).toBe('paused');
    expect(queue.busy).toBe(true);

    queue.resume(big!.id);
    expect(queue.getSnapshot()[0]!.status).toBe('queued');
    calls[1]!.resolve('next');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls[2]).toMatchObject({ name: 'big', folderId: 'f', resumeKey: 'http://h/api/uploads/1' });
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'uploading', loaded: 400 });
    calls[2]!.resolve('big');
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getSnapshot()[0]!.status).toBe('success');
  });

  it('does not pause a file sent in one request', () => {
    const { calls, transport } = controlledTransport();
    const queue = new UploadQueue({ transport, concurrency: 1, resumable });
    queue.add([{ file: file('small', 10), folderId: null }]);
    queue.pause(queue.getSnapshot()[0]!.id);
    expect(queue.getSnapshot()[0]).toMatchObject({ resumable: false, status: 'uploading' });
    expect(calls[0]!.signal.aborted).toBe(false);
  });

  it('shows a lost connection until bytes flow again, without speed or time left meanwhile', async () => {
    const { calls, transport } = controlledTransport();
    const queue = new UploadQueue({ transport, concurrency: 1, resumable });
    queue.add([{ file: file('big', 10_000), folderId: null }]);
    calls[0]!.onProgress(1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(queue.getSnapshot()[0]!.speed).toBe(1000);
    calls[0]!.onReconnecting!(true);
    expect(queue.getSnapshot()[0]).toMatchObject({ reconnecting: true, speed: null, remainingSeconds: null, status: 'uploading' });
    await vi.advanceTimersByTimeAsync(3000);
    expect(queue.getSnapshot()[0]!.speed).toBeNull();
    // The server had fewer bytes than were sent: the bar goes back to its offset.
    calls[0]!.onProgress(800);
    expect(queue.getSnapshot()[0]).toMatchObject({ reconnecting: false, loaded: 800 });
  });

  it('cancels a running upload through its transport, and discards a paused one on the server', () => {
    const { calls, transport } = controlledTransport();
    const discard = vi.fn();
    const queue = new UploadQueue({ transport, concurrency: 2, resumable, discard });
    queue.add([
      { file: file('a', 1000), folderId: null },
      { file: file('b', 1000), folderId: null },
    ]);
    calls[0]!.onResumeKey!('http://h/a');
    calls[1]!.onResumeKey!('http://h/b');
    const [a, b] = queue.getSnapshot();
    queue.cancel(a!.id);
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[0]!.signal.reason).not.toBe(PAUSE_REASON);
    expect(discard).not.toHaveBeenCalled();

    queue.pause(b!.id);
    queue.cancel(b!.id);
    expect(discard).toHaveBeenCalledExactlyOnceWith('http://h/b');
    expect(queue.getSnapshot()).toEqual([]);
  });

  it('restores unfinished uploads as rows waiting for their file; only the same name and size resume them', async () => {
    const { calls, transport } = controlledTransport();
    const onBatchSettled = vi.fn();
    const discard = vi.fn();
    const queue = new UploadQueue({ transport, concurrency: 2, resumable, onBatchSettled, discard });
    const unfinished = [
      { resumeKey: 'http://h/1', name: 'film.mp4', size: 1000, folderId: 'f1' },
      { resumeKey: 'http://h/2', name: 'notes.bin', size: 500, folderId: null },
    ];
    queue.restore(unfinished);
    queue.restore(unfinished);
    expect(queue.getSnapshot().map((entry) => [entry.name, entry.status, entry.resumable])).toEqual([
      ['film.mp4', 'needs-file', true],
      ['notes.bin', 'needs-file', true],
    ]);
    expect(queue.busy).toBe(false);
    expect(calls).toHaveLength(0);

    const [film, notes] = queue.getSnapshot();
    expect(queue.provideFile(film!.id, file('film.mp4', 999))).toBe(false);
    expect(queue.provideFile(film!.id, file('other.mp4', 1000))).toBe(false);
    expect(queue.getSnapshot()[0]!.status).toBe('needs-file');

    const picked = file('film.mp4', 1000);
    expect(queue.provideFile(film!.id, picked)).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ file: picked, folderId: 'f1', resumeKey: 'http://h/1' });

    // Dropping the other row gives its upload up on the server.
    queue.cancel(notes!.id);
    expect(discard).toHaveBeenCalledExactlyOnceWith('http://h/2');
    calls[0]!.resolve('done');
    await vi.advanceTimersByTimeAsync(0);
    expect(onBatchSettled).toHaveBeenCalledWith(expect.objectContaining({ succeeded: 1, failed: 0 }));
  });

  it('on sign-out drops every row, pausing resumable uploads on the server instead of discarding them', async () => {
    const { calls, transport } = controlledTransport();
    const discard = vi.fn();
    const onBatchSettled = vi.fn();
    const queue = new UploadQueue({ transport, concurrency: 2, resumable, discard, onBatchSettled });
    queue.add([
      { file: file('big', 1000), folderId: null },
      { file: file('small', 10), folderId: null },
    ]);
    queue.restore([{ resumeKey: 'http://h/old', name: 'old.bin', size: 500, folderId: null }]);
    calls[0]!.onResumeKey!('http://h/big');

    queue.abandon();
    expect(queue.getSnapshot()).toEqual([]);
    expect(calls[0]!.signal.reason).toBe(PAUSE_REASON);
    expect(calls[1]!.signal.aborted).toBe(true);
    expect(calls[1]!.signal.reason).not.toBe(PAUSE_REASON);
    calls[0]!.reject(new DOMException('stopped', 'AbortError'));
    calls[1]!.reject(new DOMException('stopped', 'AbortError'));
    await vi.advanceTimersByTimeAsync(0);
    expect(discard).not.toHaveBeenCalled();
    expect(onBatchSettled).not.toHaveBeenCalled();
  });

  it('discards a failed resumable upload when its row is dismissed', async () => {
    const { calls, transport } = controlledTransport();
    const discard = vi.fn();
    const queue = new UploadQueue({ transport, concurrency: 1, resumable, discard });
    queue.add([{ file: file('big', 1000), folderId: null }]);
    calls[0]!.onResumeKey!('http://h/x');
    calls[0]!.reject(new UploadFailure(0, undefined));
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'error', error: null });
    queue.dismiss(queue.getSnapshot()[0]!.id);
    expect(discard).toHaveBeenCalledExactlyOnceWith('http://h/x');
  });
});

describe('uploadConcurrency', () => {
  const catalogue = [
    { id: 'FREE', maxConcurrentUploads: 3 },
    { id: 'PRO', maxConcurrentUploads: 10 },
    { id: 'PREMIUM', maxConcurrentUploads: null },
  ] as const;

  it("follows the catalogue's concurrent uploads, within what a browser can carry to one host", () => {
    expect(uploadConcurrency(catalogue, 'FREE')).toBe(3);
    expect(uploadConcurrency(catalogue, 'PRO')).toBe(4);
    expect(uploadConcurrency(catalogue, 'PREMIUM')).toBe(4);
    expect(uploadConcurrency([{ id: 'FREE', maxConcurrentUploads: 1 }], 'FREE')).toBe(1);
  });

  it('uploads one at a time until the catalogue (or the plan in it) is known', () => {
    expect(FALLBACK_UPLOAD_CONCURRENCY).toBe(1);
    expect(uploadConcurrency(undefined, 'PRO')).toBe(1);
    expect(uploadConcurrency([{ id: 'FREE', maxConcurrentUploads: 3 }], 'PRO')).toBe(1);
  });

  it('asks about a name taken meanwhile (409 NAME_TAKEN on a fail upload), then sends it again with the choice or skips it', async () => {
    const { calls, transport } = controlledTransport();
    const asked: string[] = [];
    const answers: Array<'keep-both' | null> = ['keep-both', null];
    const settled: Array<{ succeeded: number; failed: number }> = [];
    const queue = new UploadQueue({
      transport,
      concurrency: 2,
      onNameTaken: async (entry) => {
        asked.push(entry.name);
        return answers.shift() ?? null;
      },
      onBatchSettled: ({ succeeded, failed }) => settled.push({ succeeded, failed }),
    });
    queue.add([
      { file: file('a.txt'), folderId: null, conflict: 'fail' },
      { file: file('b.txt'), folderId: null, conflict: 'fail' },
    ]);
    expect(calls.map((call) => call.conflict)).toEqual(['fail', 'fail']);
    calls[0]!.reject(new UploadFailure(409, 'A file named "a.txt" already exists there', 'NAME_TAKEN'));
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual(['a.txt']);
    expect(calls.map((call) => [call.name, call.conflict])).toEqual([
      ['a.txt', 'fail'],
      ['b.txt', 'fail'],
      ['a.txt', 'keep-both'],
    ]);
    calls[2]!.resolve('ok');
    calls[1]!.reject(new UploadFailure(409, 'taken', 'NAME_TAKEN'));
    await vi.advanceTimersByTimeAsync(0);
    // Skipped: gone from the panel, counted neither way.
    expect(asked).toEqual(['a.txt', 'b.txt']);
    expect(queue.getSnapshot().map((entry) => [entry.name, entry.status])).toEqual([['a.txt', 'success']]);
    expect(settled).toEqual([{ succeeded: 1, failed: 0 }]);
  });
});
