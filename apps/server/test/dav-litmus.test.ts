import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createUser } from '@cloudvault/test-support/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { davClientTestsRun, requireDavClient, runTool } from './helpers/dav-clients.ts';
import { davPassword } from './helpers/dav-requests.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/** The suites of RFC 4918 classes 1 and 2 and plain HTTP, every one of whose tests must pass. */
const SUITES = ['basic', 'copymove', 'props', 'locks', 'http'];

describe.runIf(davClientTestsRun('litmus'))('litmus, the WebDAV conformance suite', () => {
  let server: TestServer;
  let workDir: string;
  beforeAll(async () => {
    requireDavClient('litmus');
    server = await startTestServer();
    workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-litmus-'));
  });
  afterAll(async () => {
    await server?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it(`passes every test of ${SUITES.join(', ')}, with no warning`, { timeout: 240_000 }, async () => {
    const user = await createUser(server);
    const password = await davPassword(server, user);
    const run = await runTool('litmus', [`${server.url}/dav/`, user.email, password], { cwd: workDir, env: { TESTS: SUITES.join(' ') } });
    const summaries = [...run.stdout.matchAll(/<- summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)].map((match) => ({
      suite: match[1],
      run: Number(match[2]),
      passed: Number(match[3]),
      failed: Number(match[4]),
    }));
    const problems = run.stdout.split('\n').filter((line) => /FAIL|WARNING|SKIPPED/.test(line));
    expect({ suites: summaries.map((summary) => summary.suite), problems }).toEqual({ suites: SUITES, problems: [] });
    for (const summary of summaries) expect(summary.passed, `${summary.suite}: ${run.stdout}`).toBe(summary.run);
  });
});
