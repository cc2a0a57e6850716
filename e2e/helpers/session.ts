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

async function startE2eSession(name: string, env: Record<string, string>): Promise<E2eSession> {
  const server = await startAppServer(env);
  const browser = await launchBrowser();
  const workDir = await mkdtemp(path.join(os.tmpdir(), `cloudvault-e2e-${name}-`));
  return { server, browser, workDir };
}

/** Stops what startE2eSession started; safe when it failed half-way. */
async function stopE2eSession(session: Partial<E2eSession>): Promise<void> {
  await session.browser?.close();
  await session.server?.stop();
  if (session.workDir) await rm(session.workDir, { recursive: true, force: true });
}

/**
 * Registers a journey file's set-up and tear-down with Vitest and returns the session,
 * filled in before the first test runs. `env` adds to the server's environment (ADMIN_EMAILS…).
 */
export function useE2eSession(name: string, env: Record<string, string> = {}): E2eSession {
  const session = {} as E2eSession;
  beforeAll(async () => {
    Object.assign(session, await startE2eSession(name, env));
  });
  afterAll(() => stopE2eSession(session));
  return session;
}
