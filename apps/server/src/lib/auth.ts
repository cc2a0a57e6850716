import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from './errors.ts';

/** Who is calling: the user and the session their token names. */
export interface AuthContext {
  userId: string;
  sessionId: string;
}

export type Authenticate = (token: string) => Promise<AuthContext | null>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** onRequest hook for signed-in routes: 401 unless the bearer token names a live session. */
    requireUser: (request: FastifyRequest) => Promise<void>;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export function registerAuth(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorateRequest('auth', null);
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const auth = await authenticate(token);
    if (!auth) throw unauthorized('Your session has expired. Please sign in again.', 'SESSION_EXPIRED');
    request.auth = auth;
  });
}

/** The caller of a signed-in route (the route's onRequest hook guarantees one). */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
