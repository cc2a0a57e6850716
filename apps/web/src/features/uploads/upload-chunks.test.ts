import { describe, expect, it } from 'vitest';
import {
  chunkSizeFor,
  isRetryableStatus,
  MAX_CHUNK_BYTES,
  MIN_CHUNK_BYTES,
  RETRY_DELAYS_MS,
  SINGLE_REQUEST_MAX_BYTES,
  travelsResumably,
} from './upload-chunks';

const MiB = 1024 * 1024;

describe('travelsResumably', () => {
  it('keeps files under the threshold in one request and sends the rest over tus', () => {
    expect(travelsResumably(0)).toBe(false);
    expect(travelsResumably(SINGLE_REQUEST_MAX_BYTES - 1)).toBe(false);
    expect(travelsResumably(SINGLE_REQUEST_MAX_BYTES)).toBe(true);
    expect(travelsResumably(5 * 1024 * MiB)).toBe(true);
  });
});

describe('chunkSizeFor', () => {
  it('uses the smallest chunk for files up to 32 of them', () => {
    expect(chunkSizeFor(SINGLE_REQUEST_MAX_BYTES)).toBe(MIN_CHUNK_BYTES);
    expect(chunkSizeFor(32 * MIN_CHUNK_BYTES)).toBe(MIN_CHUNK_BYTES);
  });

  it('grows with the file in whole MiB', () => {
    expect(chunkSizeFor(32 * MIN_CHUNK_BYTES + 1)).toBe(MIN_CHUNK_BYTES + MiB);
    expect(chunkSizeFor(1024 * MiB)).toBe(32 * MiB);
  });

  it('never exceeds the proxy-safe maximum, which stays under 100 MB', () => {
    expect(chunkSizeFor(50 * 1024 * MiB)).toBe(MAX_CHUNK_BYTES);
    expect(MAX_CHUNK_BYTES).toBeLessThan(100_000_000);
  });
});

describe('RETRY_DELAYS_MS', () => {
  it('backs off and keeps trying for about ten minutes', () => {
    const delays = [...RETRY_DELAYS_MS];
    expect(delays[0]).toBe(0);
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThanOrEqual(9 * 60_000);
    expect(total).toBeLessThanOrEqual(11 * 60_000);
  });
});

describe('isRetryableStatus', () => {
  it('retries lost connections, transient server trouble and tus offset conflicts', () => {
    for (const status of [0, 500, 502, 503, 504, 409, 423]) expect(isRetryableStatus(status), String(status)).toBe(true);
  });

  it('takes refusals as final, 507 and 413 included, so the row shows the server’s message', () => {
    for (const status of [400, 401, 403, 404, 410, 413, 429, 460, 501, 507]) expect(isRetryableStatus(status), String(status)).toBe(false);
  });
});
