import { describe, expect, it } from 'vitest';
import { helmetHeaders } from './security-headers.ts';

describe('helmetHeaders', () => {
  it("gives helmet's headers for the options, the Content-Security-Policy from our directives", () => {
    const headers = helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'self'"], objectSrc: ["'none'"], upgradeInsecureRequests: null },
      },
    });
    expect(Object.fromEntries(headers)).toEqual({
      'Content-Security-Policy': "default-src 'self';object-src 'none'",
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Origin-Agent-Cluster': '?1',
      'Referrer-Policy': 'no-referrer',
      'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
      'X-Content-Type-Options': 'nosniff',
      'X-DNS-Prefetch-Control': 'off',
      'X-Download-Options': 'noopen',
      'X-Frame-Options': 'SAMEORIGIN',
      'X-Permitted-Cross-Domain-Policies': 'none',
      'X-XSS-Protection': '0',
    });
  });

  it('throws what helmet refuses', () => {
    expect(() => helmetHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], 'bad name!': ['x'] } } })).toThrow();
  });
});
