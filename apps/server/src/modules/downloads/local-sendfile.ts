import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { BlobNotFoundError, type ByteRange } from '../../adapters/blob-store/blob-store.ts';
import type { LocalFiles } from '../../adapters/blob-store/local-blob-store.ts';
import { directSocketOf } from '../../lib/direct-socket.ts';
import { nativeAddon } from '../../lib/native-addon.ts';
import { writeFileRange, writeFileRangeBytes } from '../../lib/write-file-range.ts';
import type { DirectSending } from '../../lib/zip-writer.ts';

/** Files below this go through buffers: a thread for sendfile costs more than it saves. */
const SENDFILE_MIN_LENGTH = 1024 * 1024;
/**
 * The last bytes go through the response itself, so that Node has finished it before the
 * client holds the whole body: a server closing at that moment would otherwise see a busy
 * keep-alive connection and wait for its timeout.
 */
const TAIL_LENGTH = 64 * 1024;

/** Bytes opened to be written once into a response, then closed. */
export interface ResponseSource {
  /** The most memory writing holds in buffers at once: reserved from the transfer budget before sending. */
  readonly bufferBytes: number;
  writeTo(response: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/**
 * The fast send path (docs/decisions/0012): blobs that lie on this machine's disk go from
 * the page cache into the socket with the native addon's sendfile. Chosen by the downloads
 * module per response; without local files (S3), without the addon's `send` (not built,
 * CLOUDVAULT_NATIVE=0, not Linux) or for small ranges, the store's own stream is the way.
 */
export function createLocalSendfile(localFiles: LocalFiles | undefined) {
  const usable = (): LocalFiles | undefined => (nativeAddon().send !== undefined ? localFiles : undefined);

  return {
    /** A range of a blob opened for sendfile; undefined when it takes the store's path. */
    async open(key: string, range: ByteRange | undefined): Promise<ResponseSource | undefined> {
      const files = usable();
      if (!files || !range || range.end - range.start + 1 < SENDFILE_MIN_LENGTH) return undefined;
      let file: FileHandle;
      try {
        file = await open(files.pathOf(key), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
        throw error;
      }
      const length = range.end - range.start + 1;
      let closing: Promise<void> | undefined;
      return {
        bufferBytes: writeFileRangeBytes(length, TAIL_LENGTH),
        writeTo: (response) => sendFileRange(file.fd, range.start, length, response),
        close: () => (closing ??= file.close()),
      };
    },

    /** How a zip of stored files may go into this response with sendfile; undefined when it cannot. */
    zipSending(response: ServerResponse): DirectSending | undefined {
      const files = usable();
      return files && { socket: () => directSocketOf(response), pathOf: files.pathOf };
    },
  };
}

async function sendFileRange(fd: number, start: number, length: number, response: ServerResponse): Promise<void> {
  const socket = await directSocketOf(response);
  // Only the tail's buffers were reserved (bufferBytes): when the socket is refused after
  // all (TLS, too many direct responses), the file goes through buffers of the tail's
  // size, slower but within that reservation.
  if (!socket) return writeFileRange(fd, start, length, response, TAIL_LENGTH);
  const bulk = length - TAIL_LENGTH;
  await socket.send([{ fd, offset: start, length: bulk }]);
  await writeFileRange(fd, start + bulk, TAIL_LENGTH, response);
}

export type LocalSendfile = ReturnType<typeof createLocalSendfile>;
