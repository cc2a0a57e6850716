import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';

/**
 * Every entry of a zip (a file on disk or bytes in memory), read back with yauzl, an
 * independent reader that checks each CRC32 and size as it inflates. Directories map to
 * 'dir'. Shared by the zip writer's unit test, the API tests and the browser tests.
 */
export async function readZip(source: string | Buffer): Promise<Map<string, Buffer | 'dir'>> {
  const options = { lazyEntries: true, strictFileNames: true, validateEntrySizes: true };
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    const done = (error: Error | null, opened: yauzl.ZipFile) => (error ? reject(error) : resolve(opened));
    if (typeof source === 'string') yauzl.open(source, options, done);
    else yauzl.fromBuffer(source, options, done);
  });
  const entries = new Map<string, Buffer | 'dir'>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject).on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) {
        entries.set(entry.fileName, 'dir');
        zip.readEntry();
        return;
      }
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        buffer(stream).then((bytes) => {
          entries.set(entry.fileName, bytes);
          zip.readEntry();
        }, reject);
      });
    });
    zip.readEntry();
  });
  return entries;
}
