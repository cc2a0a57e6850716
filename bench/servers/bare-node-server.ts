/**
 * The framework-free Node ceiling, run as its own process: GET /files/<name> streams the
 * file with 1 MiB reads, PUT /upload/<name> streams the request to disk, both through
 * stream.pipeline. Whatever our server does on top of this is its overhead.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const { PORT, FILES_DIR, UPLOAD_DIR } = process.env;
if (!PORT || !FILES_DIR || !UPLOAD_DIR) throw new Error('PORT, FILES_DIR and UPLOAD_DIR are required');

/** Only a bare file name under the folder, never a path out of it. */
const fileIn = (dir: string, urlPath: string, prefix: string) =>
  path.join(dir, path.basename(decodeURIComponent(urlPath.slice(prefix.length))));

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  if (req.method === 'GET' && url.startsWith('/files/')) {
    const filePath = fileIn(FILES_DIR!, url, '/files/');
    const { size } = await stat(filePath);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
    await pipeline(createReadStream(filePath, { highWaterMark: 1024 * 1024 }), res);
  } else if (req.method === 'PUT' && url.startsWith('/upload/')) {
    await pipeline(req, createWriteStream(fileIn(UPLOAD_DIR!, url, '/upload/')));
    res.writeHead(201).end();
  } else {
    res.writeHead(404).end();
  }
}

http
  .createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(error.message.includes('ENOENT') ? 404 : 500).end(error.message);
      else res.destroy(error);
    });
  })
  .listen(Number(PORT), '127.0.0.1');
