import { describe, expect, it } from 'vitest';
import { WebAuthnError } from '@simplewebauthn/browser';
import { ApiError } from '../../lib/api-client';
import { passkeyFailure, reachedByName } from './passkey-failure';

describe('passkeyFailure', () => {
  it('tells a closed or replaced prompt from a refusal, a device that has one already, and no support', () => {
    expect(passkeyFailure(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'))).toBe('cancelled');
    expect(
      passkeyFailure(new WebAuthnError({ message: 'aborted', code: 'ERROR_CEREMONY_ABORTED', cause: new Error('x'), name: 'AbortError' })),
    ).toBe('cancelled');
    expect(
      passkeyFailure(
        new WebAuthnError({
          message: 'registered',
          code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED',
          cause: new Error('x'),
          name: 'InvalidStateError',
        }),
      ),
    ).toBe('alreadyRegistered');
    expect(passkeyFailure(new Error('WebAuthn is not supported in this browser'))).toBe('unsupported');
    expect(
      passkeyFailure(new WebAuthnError({ message: 'ip', code: 'ERROR_INVALID_DOMAIN', cause: new Error('x'), name: 'SecurityError' })),
    ).toBe('wrongAddress');
    expect(passkeyFailure(new ApiError(401, 'no', 'PASSKEY_NOT_RECOGNISED', {}, 'That passkey could not be verified.'))).toBe('server');
    expect(passkeyFailure(new TypeError('Failed to fetch'))).toBe('failed');
    expect(passkeyFailure('odd')).toBe('failed');
  });

  it('knows a page opened by IP address cannot have passkeys', () => {
    expect(['drive.example.org', 'localhost', 'nas'].map(reachedByName)).toEqual([true, true, true]);
    expect(['192.168.1.20', '[::1]'].map(reachedByName)).toEqual([false, false]);
  });
});
