import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startAppServer, type AppServer } from './app-server.ts';
import { launchBrowser } from './browser.ts';

/** What a journey file runs against: the app from its bundle, one Chromium, a temp folder for test files. */
export interface E2eSession {
  server: AppServer;
  browser: Browser;
  workDir: string;
}

/**
 * Starts the server, Chromium and the folder side by side (the server's start-up mostly waits on
 * its migrations and health check, Chromium's on its own processes). Fills `session` with each
 * part as it comes up, so that a failure of one still lets the others be stopped.
 */
async function startE2eSession(session: Partial<E2eSession>, name: string, env: Record<string, string>, host?: string): Promise<void> {
  const started = await Promise.allSettled([
    startAppServer(env, { host }).then((server) => (session.server = server)),
    launchBrowser().then((browser) => (session.browser = browser)),
    mkdtemp(path.join(os.tmpdir(), `cloudvault-e2e-${name}-`)).then((workDir) => (session.workDir = workDir)),
  ]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Stops what startE2eSession started; safe when it failed half-way. */
async function stopE2eSession(session: Partial<E2eSession>): Promise<void> {
  await Promise.all([session.browser?.close(), session.server?.stop()]);
  if (session.workDir) await rm(session.workDir, { recursive: true, force: true });
}

/**
 * Registers a journey file's set-up and tear-down with Vitest and returns the session,
 * filled in before the first test runs. `env` adds to the server's environment (ADMIN_EMAILS…);
 * `host` is the name the browser reaches it by (startAppServer).
 */
export function useE2eSession(name: string, env: Record<string, string> = {}, { host }: { host?: string } = {}): E2eSession {
  const session = {} as E2eSession;
  beforeAll(() => startE2eSession(session, name, env, host));
  afterAll(() => stopE2eSession(session));
  return session;
}
