import http from 'node:http';

/** A download whose client reads nothing of the body until told to: the server stalls once the socket buffers are full. */
export interface HeldDownload {
  status: number;
  /** Starts reading the body. */
  resume(): void;
  /** The whole body, once resumed and ended. */
  body: Promise<Buffer>;
}

/** GETs `url` as the signed-in user and resolves once the response's headers are in, its body held. */
export function holdDownload(url: string, token: string): Promise<HeldDownload> {
  return new Promise((resolveHeld, rejectHeld) => {
    const request = http.get(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.pause();
      const body = new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      });
      // The server may cut the body (the point of some tests) before the test asks for it:
      // marked as handled here, the cut still rejects `body` for whoever awaits it.
      body.catch(() => {});
      resolveHeld({ status: response.statusCode ?? 0, resume: () => response.resume(), body });
    });
    request.on('error', rejectHeld);
  });
}
