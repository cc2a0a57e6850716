import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** What a browser would send for the passkey, given the options the server answered. */
type Options = { challenge: string; rp?: { id?: string }; rpId?: string; user?: { id: string } };

/** Who the authenticator believes it talks to: the page's origin and RP ID (a phishing site has others). */
export interface Site {
  origin: string;
  rpId: string;
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/**
 * A passkey made in software, as an authenticator with attestation 'none' makes it: an ES256
 * key from node:crypto, authenticator data built by hand, CBOR by the library's own encoder.
 * It signs whatever it is asked, so tests can replay, forge an origin or roll the counter back.
 */
export class SoftwarePasskey {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter the next assertion reports (then incremented when `counting`). */
  counter = 0;
  private userHandle: string | undefined;

  constructor(
    readonly site: Site,
    private readonly options: { counting?: boolean; userVerified?: boolean } = {},
  ) {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private flags(extra = 0): number {
    return FLAG_USER_PRESENT | (this.options.userVerified === false ? 0 : FLAG_USER_VERIFIED) | extra;
  }

  private authenticatorData(flags: number, attested?: Uint8Array): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(this.site.rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  /** The answer of navigator.credentials.create() to registration options. */
  register(options: Options) {
    this.userHandle = options.user?.id;
    const jwk = this.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, this.credentialId, cose]);
    const authData = this.authenticatorData(this.flags(FLAG_ATTESTED_DATA), attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientData('webauthn.create', options.challenge, this.site.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer of navigator.credentials.get() to authentication options, signed by this passkey. */
  assert(options: Options) {
    if (this.options.counting) this.counter += 1;
    const authData = this.authenticatorData(this.flags());
    const data = clientData('webauthn.get', options.challenge, this.site.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(data),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }
}
