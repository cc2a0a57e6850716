import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Server } from '@tus/server';
import { type CancellationContext, ERRORS, StreamLimiter, type Upload } from '@tus/utils';

type WriteToStore = (webBody: unknown, upload: Upload, maxBodySize: number, context: CancellationContext) => Promise<number>;

/**
 * Makes @tus/server's PATCH read the body from Node's request instead of a web stream.
 * @tus/server 2 takes a web Request: srvx turns the request into a web ReadableStream and
 * tus turns that back into a Node stream, a promise and a queue entry per 64 KiB chunk.
 * That round trip cost about 1.5 s of CPU per GiB more than the multipart route (most of
 * it garbage collection), on a 2-core server where CPU is what bounds an upload
 * (docs/decisions/0025-resumable-uploads.md). Everything else of PATCH stays tus's: the
 * header checks, the lock, the offset check, the size limit, the store's write and the
 * finish hook. The caller must keep srvx from reading the body itself (`body: null`).
 */
export function readPatchBodiesFromNode(server: Server, nodeRequestOf: (request: Request) => IncomingMessage | undefined): void {
  const patch = server.handlers.PATCH;
  const bodies = new WeakMap<CancellationContext, IncomingMessage>();
  const send = patch.send.bind(patch);
  patch.send = (request, context, headers) => {
    const body = nodeRequestOf(request);
    if (body) bodies.set(context, body);
    return send(request, context, headers);
  };
  const writeToStore: WriteToStore = async (_webBody, upload, maxBodySize, context) => {
    const body = bodies.get(context);
    if (!body || context.signal.aborted) throw ERRORS.ABORTED;
    // Through a proxy, as tus does: a body cut off mid-way ends the write with the bytes that
    // arrived (the next HEAD resumes from there) instead of failing it and losing them.
    const proxy = new PassThrough({ highWaterMark: 1024 * 1024 });
    const endEarly = () => {
      body.unpipe(proxy);
      if (!proxy.destroyed && !proxy.writableEnded) proxy.end();
    };
    body.once('error', endEarly);
    context.signal.addEventListener('abort', endEarly, { once: true });
    try {
      const limited = new StreamLimiter(maxBodySize);
      const [piped, written] = await Promise.allSettled([
        pipeline(body.pipe(proxy), limited),
        patch.store.write(limited, upload.id, upload.offset),
      ]);
      // A body past the upload's length fails both: the answer is its 413, not the store's failure.
      if (
        piped.status === 'rejected' &&
        (piped.reason as { status_code?: number }).status_code === ERRORS.ERR_MAX_SIZE_EXCEEDED.status_code
      )
        throw piped.reason;
      if (written.status === 'rejected') throw written.reason;
      if (piped.status === 'rejected') throw piped.reason;
      return written.value;
    } finally {
      body.off('error', endEarly);
      context.signal.removeEventListener('abort', endEarly);
    }
  };
  (patch as unknown as { writeToStore: WriteToStore }).writeToStore = writeToStore;
}
