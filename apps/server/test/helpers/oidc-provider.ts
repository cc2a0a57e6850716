import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** An account at the test provider: the claims it releases (email and profile scopes). */
export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  groups?: string[];
}

/** A client registered at the provider. */
export interface ProviderClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** What a test does to the ID token the provider's token endpoint is about to send (its claims, and the key it is signed with). */
export type IdTokenTamper = (claims: Record<string, unknown>) => { claims: Record<string, unknown>; key?: KeyObject };

export interface TestOpenIdProvider {
  issuer: string;
  /** Adds or changes an account (the subject is its id). */
  setAccount(subject: string, account: ProviderAccount): void;
  /** The next ID token the token endpoint sends is changed this way (once). */
  tamperNextIdToken(tamper: IdTokenTamper): void;
  /** A key the provider does not publish, for a forged signature. */
  foreignKey: KeyObject;
  close(): Promise<void>;
}

const KEY_ID = 'test-provider-key';
const ID_TOKEN_SECONDS = 60;

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function signJwt(claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${base64url({ alg: 'RS256', typ: 'JWT', kid: KEY_ID })}.${base64url(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A real OpenID provider (the `oidc-provider` package) on a free 127.0.0.1 port, for the
 * single sign-on tests. Its sign-in page is a form listing the accounts: a browser test
 * picks one and submits it; `signInAtProvider` in the integration tests does the same over
 * HTTP. Consent is implied (the operator's own client). ID tokens live 60 seconds.
 */
export async function startOpenIdProvider(options: {
  /** Read at the first request: a browser test learns its server's address (the redirect URI) after the issuer's. */
  clients: ProviderClient[] | (() => ProviderClient[]);
  accounts: Record<string, ProviderAccount>;
}): Promise<TestOpenIdProvider> {
  const accounts = new Map(Object.entries(options.accounts));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  let tamper: IdTokenTamper | undefined;

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const build = (clients: ProviderClient[]) => {
    const provider = new Provider(issuer, {
      clients: clients.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      })),
      jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: KEY_ID, alg: 'RS256', use: 'sig' }] },
      cookies: { keys: [createHash('sha256').update(issuer).digest('hex')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name', 'groups'] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      ttl: { IdToken: ID_TOKEN_SECONDS, AccessToken: 600, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600 },
      async findAccount(_ctx: KoaContextWithOIDC, subject: string) {
        const account = accounts.get(subject);
        return account ? { accountId: subject, claims: async () => ({ sub: subject, ...account }) } : undefined;
      },
      // The operator's own application: consent is implied.
      async loadExistingGrant(ctx: KoaContextWithOIDC) {
        const { Grant } = ctx.oidc.provider;
        const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
        if (grantId) return Grant.find(grantId);
        const grant = new Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
    });

    // A test's change to the ID token on its way out of the token endpoint, re-signed.
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path !== '/token' || !tamper || !body?.id_token) return;
      const changed = tamper(JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString()));
      tamper = undefined;
      ctx.body = { ...body, id_token: signJwt(changed.claims, changed.key ?? privateKey) };
    });

    return { provider, callback: provider.callback() };
  };
  let built: ReturnType<typeof build> | undefined;

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    built ??= build(typeof options.clients === 'function' ? options.clients() : options.clients);
    const { provider, callback } = built;
    const interaction = /^\/interaction\/([\w-]+)$/.exec(request.url ?? '');
    if (!interaction) return callback(request, response);
    void (async () => {
      try {
        const details = await provider.interactionDetails(request, response);
        if (request.method === 'POST') {
          const chunks: Buffer[] = [];
          for await (const chunk of request) chunks.push(chunk as Buffer);
          const accountId = new URLSearchParams(Buffer.concat(chunks).toString()).get('account') ?? '';
          await provider.interactionFinished(request, response, { login: { accountId } }, { mergeWithLastSubmission: false });
          return;
        }
        const choices = [...accounts.keys()].map((id) => `<option value="${escapeHtml(id)}">${escapeHtml(id)}</option>`).join('');
        response.setHeader('Content-Type', 'text/html; charset=utf-8');
        response.end(
          `<!doctype html><title>Test provider</title><h1>Sign in to the test provider</h1>` +
            `<form method="post" action="/interaction/${details.uid}"><label>Account <select name="account">${choices}</select></label>` +
            `<button type="submit">Sign in</button></form>`,
        );
      } catch (error) {
        response.statusCode = 400;
        response.end(String(error));
      }
    })();
  });

  return {
    issuer,
    setAccount: (subject, account) => accounts.set(subject, account),
    tamperNextIdToken: (change) => {
      tamper = change;
    },
    foreignKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
