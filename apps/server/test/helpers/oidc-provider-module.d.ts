/**
 * The few parts of `oidc-provider` (which ships no types) that the tests' provider uses
 * (helpers/oidc-provider.ts).
 */
declare module 'oidc-provider' {
  import type http from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface KoaContextWithOIDC {
    path: string;
    body: unknown;
    oidc: {
      provider: Provider;
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
    };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: { new (properties: { clientId: string; accountId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): void;
    callback(): (request: http.IncomingMessage, response: http.ServerResponse) => void;
    interactionDetails(request: http.IncomingMessage, response: http.ServerResponse): Promise<{ uid: string; prompt: { name: string } }>;
    interactionFinished(
      request: http.IncomingMessage,
      response: http.ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
