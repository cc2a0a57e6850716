import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { newId } from '../../lib/ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends one message or throws; retrying is the caller's business (the mail queue). */
export interface Mailer {
  /** Where messages go, for the start-up log: an SMTP host or the outbox folder. */
  readonly describe: string;
  send(message: MailMessage): Promise<void>;
}

const FROM_NAME = 'CloudVault';

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise every message is written as an
 * .eml file to DATA_DIR/outbox, so a single machine without a mail server loses nothing.
 */
export function createMailer(options: { smtpUrl: string | undefined; outboxDir: string; from: string }): Mailer {
  const from = { name: FROM_NAME, address: options.from };
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      describe: `SMTP ${new URL(options.smtpUrl).host}`,
      async send(message) {
        await transport.sendMail({ from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `the outbox folder ${options.outboxDir}`,
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.eml`);
      // Written whole under a temporary name, so a reader never sees half a message.
      await writeFile(`${file}.part`, info.message as Buffer);
      await rename(`${file}.part`, file);
    },
  };
}
