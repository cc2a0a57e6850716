import type { Writable } from 'node:stream';
import type { DownloadEntry } from './sync-downloads.service.ts';

/** Writes `text` and waits while the client's side is full: never more than a socket's buffer held. Rejects once the client is gone. */
async function writeText(destination: Writable, text: string): Promise<void> {
  if (destination.destroyed) throw new Error('the client went away');
  if (destination.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      destination.off('drain', drained);
      destination.off('close', closed);
      if (error) reject(error);
      else resolve();
    };
    const drained = () => settle();
    const closed = () => settle(new Error('the client went away'));
    destination.on('drain', drained);
    destination.on('close', closed);
  });
}

/**
 * The body of application/x-cloudvault-files: for each entry a JSON line, then exactly the
 * file's bytes (none after an error line), and `{"end":true}` last. Every blob is closed
 * after its turn; a failure rejects, and the caller cuts the connection so the client never
 * reads a short file as whole.
 */
export async function writeFilesStream(destination: Writable, entries: AsyncIterable<DownloadEntry>): Promise<void> {
  for await (const entry of entries) {
    if ('error' in entry) {
      await writeText(destination, `${JSON.stringify(entry.error)}\n`);
      continue;
    }
    try {
      await writeText(destination, `${JSON.stringify(entry.header)}\n`);
      await entry.source.writeTo(destination);
    } finally {
      await entry.source.close();
    }
  }
  await writeText(destination, `${JSON.stringify({ end: true })}\n`);
}
