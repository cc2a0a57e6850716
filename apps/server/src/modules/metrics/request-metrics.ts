import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metrics } from '../../lib/metrics.ts';

/** Seconds; from a health check to a large upload. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** The route's pattern (`/api/files/:id`), never the raw URL: ids and tokens would make a series each. */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

const isUpload = (request: FastifyRequest) => {
  const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
  return consumes?.includes('multipart/form-data') ?? false;
};

const declaredLength = (value: unknown): number => {
  const length = Number(value);
  return Number.isSafeInteger(length) && length > 0 ? length : 0;
};

/**
 * Counts every request by route and status, with its latency and the bytes it moved, and
 * the uploads running now. Bytes are counted on the connection (a keep-alive connection
 * carries one request at a time); a response whose file bytes went out with sendfile(2),
 * past Node's counters, counts its Content-Length instead (lib/direct-socket.ts).
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  const requests = metrics.counter({
    name: 'cloudvault_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status (aborted: the connection closed first)',
    labelNames: ['method', 'route', 'status'],
  });
  const duration = metrics.histogram({
    name: 'cloudvault_http_request_duration_seconds',
    help: 'Time from a request’s headers to the end of its response, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: DURATION_BUCKETS,
  });
  const received = metrics.counter({
    name: 'cloudvault_http_received_bytes_total',
    help: 'Bytes received in requests (bodies, uploads)',
    labelNames: ['route'],
  });
  const sent = metrics.counter({
    name: 'cloudvault_http_sent_bytes_total',
    help: 'Bytes sent in responses (downloads, zips)',
    labelNames: ['route'],
  });
  const uploads = metrics.gauge({ name: 'cloudvault_uploads_in_flight', help: 'Uploads being received now' });

  app.addHook('onRequest', async (request, reply) => {
    const started = process.hrtime.bigint();
    const socket = request.raw.socket;
    const readBefore = socket.bytesRead;
    const writtenBefore = socket.bytesWritten;
    const upload = isUpload(request);
    if (upload) uploads.inc();
    reply.raw.once('close', () => {
      if (upload) uploads.dec();
      const route = routeOf(request);
      const finished = reply.raw.writableFinished;
      requests.inc({ method: request.method, route, status: finished ? String(reply.raw.statusCode) : 'aborted' });
      duration.observe({ method: request.method, route }, Number(process.hrtime.bigint() - started) / 1e9);
      const bodyIn = request.raw.complete ? declaredLength(request.headers['content-length']) : 0;
      received.inc({ route }, Math.max(socket.bytesRead - readBefore, bodyIn));
      const bodyOut = finished && request.method !== 'HEAD' ? declaredLength(reply.raw.getHeader('content-length')) : 0;
      sent.inc({ route }, Math.max(socket.bytesWritten - writtenBefore, bodyOut));
    });
  });
}
