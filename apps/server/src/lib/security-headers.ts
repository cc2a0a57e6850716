import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for these options. They depend on the options alone (no
 * directive of ours is a function of the request), so they are worked out once, by
 * running helmet's middleware against a response that only records them.
 */
export function helmetHeaders(options: HelmetOptions): ReadonlyMap<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    // X-Powered-By, which neither Node nor Fastify sets.
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * helmet's headers on every response, set on arrival on the raw response as @fastify/helmet
 * did (downloads written outside Fastify's send carry them too). @fastify/helmet ran
 * helmet(options) again for every request, parsing and checking the whole
 * Content-Security-Policy each time: about 4 % of a small signed-in request's CPU
 * (docs/decisions/0034-request-cost.md, addendum).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = [...helmetHeaders(options)];
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
