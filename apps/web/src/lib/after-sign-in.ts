/**
 * Where a visitor sent to sign in from a page that needs the session goes once signed in,
 * whichever way they sign in (password, two-factor, passkey, single sign-on, registration):
 * kept for the tab in sessionStorage. Only the files shared into the app use it
 * (docs/decisions/0066-offline-and-sharing-in.md): the share sheet can open /share before
 * anybody is signed in on the phone.
 */
const KEY = 'cloudvault.afterSignIn';

export function rememberAfterSignIn(address: string): void {
  try {
    window.sessionStorage.setItem(KEY, address);
  } catch {
    // Storage unavailable: the user lands on the dashboard as usual.
  }
}

/** The address remembered, once: it is forgotten as it is read. */
export function takeAfterSignIn(): string | null {
  try {
    const address = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
    return address;
  } catch {
    return null;
  }
}
