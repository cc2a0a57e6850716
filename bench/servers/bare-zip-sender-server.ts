/**
 * Our native sender with no server around it: GET /folder.zip answers the bytes of the
 * pre-built zip in ZIP_FILE, each member's data sent from its own file in MEMBERS_DIR and
 * everything between (local headers, data descriptors, the central directory) as bytes,
 * all in one call of the addon, as the folder zip sends a group. No database, no header
 * building, no HTTP framework: what is left is the addon's per-member work and the bytes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

interface NativeSender {
  send(
    socketFd: number,
    segments: (Buffer | { path: string; offset: number; length: number })[],
    idleTimeoutMs: number,
    done: (error: Error | null) => void,
  ): object;
}

const { PORT, ZIP_FILE, MEMBERS_DIR } = process.env;
if (!PORT || !ZIP_FILE || !MEMBERS_DIR) throw new Error('PORT, ZIP_FILE and MEMBERS_DIR are required');
const native = createRequire(import.meta.url)('@cloudvault/native') as Partial<NativeSender>;
if (typeof native.send !== 'function') throw new Error('@cloudvault/native has no sender on this system');
const sender = native as NativeSender;

const zip = readFileSync(ZIP_FILE);
const segments = membersAndBytesBetween(zip, MEMBERS_DIR);
const head = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Length: ${zip.length}\r\n\r\n`);
const notFound = Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');

/**
 * The zip as segments: every stored member's data as a range of its file (found by its
 * name), the bytes between them as Buffers. Reads the central directory (no comment, no
 * zip64: the bench's zip has neither).
 */
function membersAndBytesBetween(bytes: Buffer, membersDir: string) {
  const end = bytes.length - 22;
  if (bytes.readUInt32LE(end) !== 0x06054b50) throw new Error(`${ZIP_FILE}: no end of central directory where expected`);
  const count = bytes.readUInt16LE(end + 10);
  let record = bytes.readUInt32LE(end + 16);
  const result: (Buffer | { path: string; offset: number; length: number })[] = [];
  let position = 0;
  for (let index = 0; index < count; index++) {
    const size = bytes.readUInt32LE(record + 20);
    const nameLength = bytes.readUInt16LE(record + 28);
    const name = bytes.toString('utf8', record + 46, record + 46 + nameLength);
    const local = bytes.readUInt32LE(record + 42);
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    result.push(bytes.subarray(position, dataStart), { path: path.join(membersDir, name), offset: 0, length: size });
    position = dataStart + size;
    record += 46 + nameLength + bytes.readUInt16LE(record + 30) + bytes.readUInt16LE(record + 32);
  }
  result.push(bytes.subarray(position));
  return result;
}

net
  .createServer((socket) => {
    let request = '';
    socket.on('data', (chunk) => {
      request += chunk.toString('latin1');
      const headEnd = request.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const target = request.split(' ', 2)[1];
      request = request.slice(headEnd + 4);
      if (target !== '/folder.zip') return void socket.write(notFound);
      const fd = (socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
      if (typeof fd !== 'number' || fd < 0) return void socket.destroy();
      socket.pause();
      sender.send(fd, [head, ...segments], 60_000, (error) => (error ? socket.destroy(error) : socket.resume()));
    });
  })
  .listen(Number(PORT), '127.0.0.1');
