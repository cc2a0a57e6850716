import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with each request: forward it, answer 503 (or 403) as S3 does, or take it and never answer. */
export type StoreFault = 'none' | 'unavailable' | 'refused' | 'stall';

/** An HTTP proxy in front of an S3-protocol server whose faults a test switches on and off. */
export interface S3FaultProxy {
  /** Where the server under test sends its S3 requests. */
  endpoint: string;
  /**
   * Applies to every request from now on (or only those `only` picks by method and URL),
   * and to answers still being forwarded.
   */
  setFault(fault: StoreFault, only?: (method: string, url: string) => boolean): void;
  /** Requests it has seen while a fault was on. */
  faultedRequests(): number;
  close(): Promise<void>;
}

/** A refusal of this one request (a denied key, a bad range), not an outage: nothing fails fast after it. */
const REFUSED_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>fault-proxy</RequestId></Error>';
const UNAVAILABLE_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>ServiceUnavailable</Code><Message>Please reduce your request rate.</Message><RequestId>fault-proxy</RequestId></Error>';

/**
 * Forwards each request to `target` while no fault is on. With `unavailable`, every request
 * is answered `503 ServiceUnavailable` in S3's XML (`refused`: `403 AccessDenied`); with `stall`, a request is accepted and
 * never answered, and an answer being forwarded stops mid-body. Per request, not per
 * connection, since the SDK keeps connections alive across a fault's start and end. An
 * exchange stalled mid-body is cut when the fault ends, never resumed with bytes missing.
 */
export async function startS3FaultProxy(target: string): Promise<S3FaultProxy> {
  const { hostname, port } = new URL(target);
  let fault: StoreFault = 'none';
  let picks: (method: string, url: string) => boolean = () => true;
  let faulted = 0;
  const stalled = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const faultHere = picks(request.method ?? '', request.url ?? '') ? fault : 'none';
    if (faultHere === 'unavailable' || faultHere === 'refused') {
      faulted += 1;
      request.resume();
      const xml = faultHere === 'refused' ? REFUSED_XML : UNAVAILABLE_XML;
      response.writeHead(faultHere === 'refused' ? 403 : 503, {
        'content-type': 'application/xml',
        'content-length': Buffer.byteLength(xml),
      });
      response.end(xml);
      return;
    }
    if (faultHere === 'stall') {
      faulted += 1;
      stalled.add(response);
      response.on('close', () => stalled.delete(response));
      return;
    }
    const upstream = http.request(
      { host: hostname, port: Number(port), method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          if (fault === 'stall' && picks(request.method ?? '', request.url ?? '')) {
            // Nothing more gets through; the chunk is dropped, so the exchange is cut, not resumed, when the fault ends.
            answer.pause();
            stalled.add(response);
            return;
          }
          if (!response.write(chunk)) answer.pause();
        });
        response.on('drain', () => {
          if (!stalled.has(response)) answer.resume();
        });
        answer.on('end', () => response.end());
        answer.on('error', () => response.destroy());
      },
    );
    upstream.on('error', () => response.destroy());
    response.on('close', () => {
      stalled.delete(response);
      upstream.destroy();
    });
    request.pipe(upstream);
  });
  // A stalled request waits however long its client does.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${proxyPort}`,
    setFault(next, only = () => true) {
      fault = next;
      picks = only;
      if (next !== 'stall') {
        for (const response of stalled) response.destroy();
        stalled.clear();
      }
    },
    faultedRequests: () => faulted,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
