import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, listFiles } from '@cloudvault/test-support/drive';
import { runTool } from './helpers/dav-clients.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { randomFile, sha256OfResponse } from './helpers/tus-upload.ts';

// tus-py-client, Debian's python3-tuspy: a tus client written by others, not by us and not
// in JavaScript (docs/decisions/0025-resumable-uploads.md).

/** Debian's interpreter, where apt puts the package (a python3 earlier on PATH may be another one). */
const PYTHON = '/usr/bin/python3';

function tuspyInstalled(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import tusclient'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Collected when installed; otherwise skipped loudly, or failed under REQUIRE_TUS_CLIENTS=1 (CI). */
const runs = tuspyInstalled() || process.env.REQUIRE_TUS_CLIENTS === '1';
if (!runs)
  console.warn('SKIPPED: the tus-py-client tests need it (apt-get install -y python3-tuspy); REQUIRE_TUS_CLIENTS=1 makes this a failure.');

/**
 * Uploads the file with tuspy's Uploader, `stop_at` bytes first; then a second Uploader
 * given only the upload's URL asks the offset (HEAD) and sends the rest, as after a restart.
 * Prints the upload's URL and the X-File-Id of the last answer.
 */
const UPLOAD_SCRIPT = `
import json, sys
from tusclient import client
from tusclient.uploader import Uploader
endpoint, token, file_path, chunk_size, stop_at, metadata = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), json.loads(sys.argv[6])
tus = client.TusClient(endpoint, headers={'Authorization': 'Bearer ' + token})
first = tus.uploader(file_path, chunk_size=chunk_size, metadata=metadata)
first.upload(stop_at=stop_at)
resumed = Uploader(file_path, url=first.url, client=tus, chunk_size=chunk_size)
resumed_from = resumed.offset
resumed.upload()
print(json.dumps({'url': first.url, 'resumedFrom': resumed_from, 'fileId': resumed.request.response_headers.get('x-file-id')}))
`;

/** Creation only, to see how the client reports a refusal. */
const REFUSED_SCRIPT = `
import json, sys
from tusclient import client
from tusclient.exceptions import TusCommunicationError
tus = client.TusClient(sys.argv[1], headers={'Authorization': 'Bearer ' + sys.argv[2]})
try:
    tus.uploader(sys.argv[3], metadata={'filename': 'too-big.bin'}).upload()
except TusCommunicationError as error:
    print(json.dumps({'status': error.status_code, 'body': error.response_content.decode()}))
`;

const MiB = 1024 * 1024;
let server: TestServer;

describe.runIf(runs)('tus-py-client (python3-tuspy) against /api/uploads', () => {
  beforeAll(async () => {
    if (!tuspyInstalled())
      throw new Error('python3-tuspy is not installed (apt-get install -y python3-tuspy) and REQUIRE_TUS_CLIENTS=1 is set');
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("uploads in chunks into a folder, resumes from the server's offset and lists the exact bytes", async () => {
    const { token } = await createUser(server);
    const folder = await createFolder(server, token, 'From Python');
    const source = await randomFile(3 * MiB + 17, 'sensor-log.bin');
    const metadata = { filename: 'sensor log ü.bin', folderId: folder.id, filetype: 'application/octet-stream' };
    const run = await runTool(PYTHON, [
      '-c',
      UPLOAD_SCRIPT,
      `${server.url}/api/uploads`,
      token,
      source.path,
      String(MiB),
      String(2 * MiB),
      JSON.stringify(metadata),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { url: string; resumedFrom: number; fileId: string };
    expect(result.url.startsWith(`${server.url}/api/uploads/`)).toBe(true);
    expect(result.resumedFrom).toBe(2 * MiB);
    const files = await listFiles(server, token, folder.id);
    expect(files.map((file) => [file.id, file.originalName, file.size])).toEqual([[result.fileId, 'sensor log ü.bin', 3 * MiB + 17]]);
    const download = await fetch(`${server.url}/api/files/${result.fileId}/download`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await sha256OfResponse(download)).toBe(source.sha256);
    await rm(path.dirname(source.path), { recursive: true });
  });

  it('hands the client our refusal of a file over the plan, with its status and JSON text', async () => {
    const { token } = await createUser(server);
    const plan = server.container.plans.get('FREE');
    // Sparse: only its size is read before the refusal.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-tuspy-'));
    await writeFile(path.join(dir, 'too-big.bin'), '');
    await truncate(path.join(dir, 'too-big.bin'), (plan.maxFileSize ?? plan.storageLimit) + 1);
    const run = await runTool(PYTHON, ['-c', REFUSED_SCRIPT, `${server.url}/api/uploads`, token, path.join(dir, 'too-big.bin')]);
    expect(run.code).toBe(0);
    const refusal = JSON.parse(run.stdout) as { status: number; body: string };
    expect(refusal.status).toBe(plan.maxFileSize === null ? 507 : 413);
    expect(JSON.parse(refusal.body)).toMatchObject({ code: plan.maxFileSize === null ? 'QUOTA_EXCEEDED' : 'FILE_TOO_LARGE' });
    expect(await listFiles(server, token)).toEqual([]);
    await rm(dir, { recursive: true });
  });
});
