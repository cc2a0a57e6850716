import { describe, expect, it } from 'vitest';
import { LinkUploadFailure } from '../api/upload-to-link';
import { linkUploadError } from './use-link-uploads';

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
