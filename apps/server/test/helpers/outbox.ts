import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';

/**
 * The first message to `to` whose subject matches, read from the .eml files a server
 * without SMTP writes to DATA_DIR/outbox, once it is there (or fails after a few seconds).
 */
export async function outboxMail(dataDir: string, to: string, subject: string | RegExp): Promise<ParsedMail> {
  const outbox = path.join(dataDir, 'outbox');
  const matches = (mail: ParsedMail) =>
    mail.to !== undefined &&
    !Array.isArray(mail.to) &&
    mail.to.text === to &&
    (typeof subject === 'string' ? mail.subject === subject : subject.test(mail.subject ?? ''));
  for (let waited = 0; ; waited += 50) {
    const names = (await readdir(outbox).catch(() => [])).filter((name) => name.endsWith('.eml'));
    const mails = await Promise.all(names.map(async (name) => simpleParser(await readFile(path.join(outbox, name)))));
    const found = mails.find(matches);
    if (found) return found;
    if (waited > 5000) throw new Error(`no mail "${String(subject)}" to ${to} in ${outbox}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The token of the link to `path` in a message's text. */
export function linkToken(mail: ParsedMail, publicUrl: string, path: '/verify-email' | '/reset-password'): string {
  const match = new RegExp(`${publicUrl}${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text ?? '');
  if (!match) throw new Error(`no ${path} link in "${mail.subject}"`);
  return match[1] as string;
}
