import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { AppServer } from './app-server.ts';

/**
 * The newest link to `<PUBLIC_URL><page>?token=…` mailed to `to`, read from the .eml files
 * the server writes to DATA_DIR/outbox without SMTP (or fails after a few seconds).
 */
export async function mailedLink(server: AppServer, to: string, page: '/verify-email' | '/reset-password'): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox');
  const pattern = new RegExp(`${server.url}${page}\\?token=[A-Za-z0-9_-]+`);
  for (let waited = 0; ; waited += 50) {
    // File names start with the time of writing: the newest sorts last.
    const names = (await readdir(outbox).catch(() => []))
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .reverse();
    for (const name of names) {
      const mail = await simpleParser(await readFile(path.join(outbox, name)));
      const link = pattern.exec(mail.text ?? '');
      if (link && !Array.isArray(mail.to) && mail.to?.text === to) return link[0];
    }
    if (waited > 10_000) throw new Error(`no ${page} link mailed to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Verifies an address through the link of its verification mail, for journeys not about verifying. */
export async function verifyViaOutbox(server: AppServer, email: string): Promise<void> {
  const token = new URL(await mailedLink(server, email, '/verify-email')).searchParams.get('token');
  const response = await fetch(`${server.url}/api/auth/verify-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (response.status !== 200) throw new Error(`verify-email failed: ${response.status} ${await response.text()}`);
}
