/** Who passkeys are made for: the site's domain (the RP ID) and the one origin its pages are served from. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/**
 * PUBLIC_URL names both: its hostname is the RP ID a passkey is bound to, its origin the
 * only one an answer may come from. Browsers refuse an IP address as an RP ID, so an
 * instance reached by address cannot use passkeys (docs/decisions/0063-passkeys.md).
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'CloudVault' };
}
