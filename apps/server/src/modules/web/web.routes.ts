import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors.ts';

/**
 * Serves the built web app: hashed assets cached for a year, brotli or gzip as the
 * browser accepts, and index.html (never cached) for every other path outside /api so the
 * client-side router decides.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const built = distDir !== undefined && existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      // The build writes .br and .gz beside each text file (apps/web/vite-plugins/precompress.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        const isHashedAsset = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
        reply.header('Cache-Control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  // The web app's share target (apps/web/vite.config.ts) posts the files a phone shares to
  // /share-target; its service worker takes them. A POST it did not catch (the first visit,
  // before the worker; a browser without one) lands here: the page then says nothing arrived.
  // The body is not read: the answer goes first, before any 100 Continue, and the lingering
  // close (lib/early-answers.ts) drops what the browser sends anyway.
  await app.register(async (shareTarget) => {
    // Any body type: the share sheet's multipart form, or whatever else is posted here.
    shareTarget.addContentTypeParser('*', (_request, _payload, done) => done(null));
    shareTarget.post('/share-target', { schema: { hide: true }, config: { decidesContinue: true } }, async (_request, reply) =>
      reply.redirect('/share', 303),
    );
  });

  app.setNotFoundHandler(async (request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?');
    if (isApi) throw notFound(`No such API route: ${request.method} ${request.url.split('?')[0]}`, 'ROUTE_NOT_FOUND');
    // WebDAV answers every method it knows at /dav/; a client never gets the web app's page there.
    if (request.url === '/dav' || request.url.startsWith('/dav/'))
      throw notFound('This method is not part of WebDAV here', 'ROUTE_NOT_FOUND');
    if (!built || (request.method !== 'GET' && request.method !== 'HEAD')) {
      throw notFound(built ? 'Not found' : 'The web app is not built: run npm run build', 'NOT_FOUND');
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
