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

/** A message as it leaves: with the Message-ID it was given when queued, the same on every attempt. */
export interface OutgoingMail extends MailMessage {
  /** `<unique@domain>`; absent for messages queued before ids were kept, which get a new one. */
  messageId?: string;
}

/** Sends one message or throws; retrying is the caller's business (the mail queue). */
export interface Mailer {
  /** Where messages go, for the start-up log: an SMTP host or the outbox folder. */
  readonly describe: string;
  /**
   * A new Message-ID in the sender's domain, given to a message when it is queued, so that
   * a message sent twice (a crash between sending and recording it) can be recognised
   * as one (docs/decisions/0020-running-several-nodes.md).
   */
  newMessageId(): string;
  send(message: OutgoingMail): Promise<void>;
}

const FROM_NAME = 'CloudVault';

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise every message is written as an
 * .eml file to DATA_DIR/outbox, so a single machine without a mail server loses nothing.
 */
export function createMailer(options: { smtpUrl: string | undefined; outboxDir: string; from: string }): Mailer {
  const from = { name: FROM_NAME, address: options.from };
  const domain = options.from.slice(options.from.lastIndexOf('@') + 1);
  const newMessageId = () => `<${newId()}@${domain}>`;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      describe: `SMTP ${new URL(options.smtpUrl).host}`,
      newMessageId,
      async send(message) {
        await transport.sendMail({ from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `the outbox folder ${options.outboxDir}`,
    newMessageId,
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
