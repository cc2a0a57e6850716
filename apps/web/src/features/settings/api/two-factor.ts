import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageBody } from '@cloudvault/contract/common';
import type { RecoveryCodesResponse, TwoFactorDisableBody, TwoFactorSetupResponse } from '@cloudvault/contract/profile';
import type { Settings } from '@cloudvault/contract/settings';
import { useSession } from '../../../hooks/use-session';
import { api } from '../../../lib/api-client';
import { settingsKeys } from '../../../lib/query-keys';

/** POST /api/auth/2fa/setup: a new secret and its QR code, not active until confirmed. */
export function setupTwoFactor(): Promise<TwoFactorSetupResponse> {
  return api.post<TwoFactorSetupResponse>('/auth/2fa/setup');
}

/** POST /api/auth/2fa/enable: a code from the app turns it on; ten recovery codes come back once. */
export function enableTwoFactor(code: string): Promise<RecoveryCodesResponse> {
  return api.post<RecoveryCodesResponse>('/auth/2fa/enable', { code });
}

/** POST /api/auth/2fa/disable with a current code or a recovery code, and the account's password. */
export function disableTwoFactor(input: TwoFactorDisableBody): Promise<MessageBody> {
  return api.post<MessageBody>('/auth/2fa/disable', input);
}

export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor });
}

/**
 * After either change, the settings toggle and the session's user (the Profile page's
 * status) show the new state; the settings are then re-read from the server to be sure.
 */
function useTwoFactorChanged() {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return (enabled: boolean) => {
    queryClient.setQueryData<Settings>(settingsKeys.all, (current) =>
      current ? { ...current, privacy: { ...current.privacy, twoFactorAuth: enabled } } : current,
    );
    updateUser({ twoFactorEnabled: enabled });
    void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
  };
}

export function useEnableTwoFactor() {
  const changed = useTwoFactorChanged();
  return useMutation({ mutationFn: enableTwoFactor, onSuccess: () => changed(true) });
}

export function useDisableTwoFactor() {
  const changed = useTwoFactorChanged();
  return useMutation({ mutationFn: disableTwoFactor, onSuccess: () => changed(false) });
}
