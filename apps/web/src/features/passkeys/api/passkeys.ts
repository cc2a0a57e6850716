import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuthResponse } from '@cloudvault/contract/accounts';
import type { Passkey, PasskeyAssertion, PasskeyOptionsResponse, PasskeysResponse } from '@cloudvault/contract/passkeys';
import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { api } from '../../../lib/api-client';
import { passkeyKeys } from '../../../lib/query-keys';
import { startSession } from '../../../lib/session';

/** GET /api/user/passkeys: oldest first, never the keys. */
export async function listPasskeys({ signal }: { signal?: AbortSignal } = {}): Promise<Passkey[]> {
  return (await api.get<PasskeysResponse>('/user/passkeys', { signal })).passkeys;
}

/**
 * Adds a passkey: the server's options, the browser's prompt (the user picks where to keep
 * it and confirms with a fingerprint, face or PIN), then the answer stored under `name`.
 */
export async function addPasskey(name: string): Promise<Passkey> {
  const { ceremonyId, options } = await api.post<PasskeyOptionsResponse>('/user/passkeys/options');
  const credential = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return api.post<Passkey>('/user/passkeys', { ceremonyId, name, credential });
}

/** PATCH /api/user/passkeys/:id. */
export function renamePasskey({ id, name }: { id: string; name: string }): Promise<Passkey> {
  return api.patch<Passkey>(`/user/passkeys/${encodeURIComponent(id)}`, { name });
}

/** DELETE /api/user/passkeys/:id: refused (409) while it is the account's only way to sign in. */
export function removePasskey(id: string): Promise<void> {
  return api.delete<void>(`/user/passkeys/${encodeURIComponent(id)}`);
}

/**
 * A passkey's answer to a fresh sign-in ceremony. With `autofill` the browser offers the
 * site's passkeys in the e-mail field's suggestions and the promise waits until one is
 * picked (conditional UI); otherwise it shows its own prompt at once.
 */
export async function passkeyAssertion({ autofill = false }: { autofill?: boolean } = {}): Promise<PasskeyAssertion> {
  const { ceremonyId, options } = await api.post<PasskeyOptionsResponse>('/auth/passkey/options');
  const credential = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  });
  return { ceremonyId, credential: credential as PasskeyAssertion['credential'] };
}

/** POST /api/auth/passkey: a sign-in with the passkey alone. A 401 is a refusal to show, not an expired session. */
export function signInWithPasskey(assertion: PasskeyAssertion): Promise<AuthResponse> {
  return api.post<AuthResponse>('/auth/passkey', assertion, { ignoreUnauthorized: true });
}

export function passkeysQueryOptions() {
  return queryOptions({ queryKey: passkeyKeys.all, queryFn: listPasskeys });
}

export function usePasskeys() {
  return useQuery(passkeysQueryOptions());
}

function useInvalidatingMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all }) });
}

export const useAddPasskey = () => useInvalidatingMutation(addPasskey);
export const useRenamePasskey = () => useInvalidatingMutation(renamePasskey);
export const useRemovePasskey = () => useInvalidatingMutation(removePasskey);

/** Signs in with a passkey answer and makes the new session current. */
export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (assertion: PasskeyAssertion) => signInWithPasskey(assertion),
    onSuccess: (response) => startSession(queryClient, response),
  });
}
